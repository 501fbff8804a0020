import type { Middleware } from "grammy";
import type { Logger } from "../../core/index.ts";
import type { LiloContext } from "./context.ts";

/** Chats remembered as refused; beyond this the memory starts over (a flood of strangers cannot grow it). */
const MAX_REFUSED_CHATS = 10_000;

/**
 * Lets only allowlisted Telegram users through and tells the core who they
 * are (`ctx.liloUserId`). A stranger gets one short refusal per chat and
 * process; nothing of theirs is stored, logged or sent to a model.
 */
export function accessControl(allowedUsers: Record<string, string>, refusal: string, logger: Logger): Middleware<LiloContext> {
  const refusedChats = new Set<number>();
  return async (ctx, next) => {
    const userId = ctx.from ? allowedUsers[String(ctx.from.id)] : undefined;
    if (userId) {
      ctx.liloUserId = userId;
      return next();
    }
    // The id only: a stranger's words stay out of the logs too.
    logger.info("telegram update from a user not on the allowlist ignored", { telegramUserId: ctx.from?.id ?? null });
    if (ctx.callbackQuery) return void (await ctx.answerCallbackQuery({ text: refusal }));
    const chatId = ctx.chat?.id;
    if (!ctx.message || chatId === undefined || refusedChats.has(chatId)) return;
    if (refusedChats.size >= MAX_REFUSED_CHATS) refusedChats.clear();
    refusedChats.add(chatId);
    await ctx.reply(refusal);
  };
}
