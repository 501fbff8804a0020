import type { Middleware } from "grammy";
import type { Logger } from "../../core/index.ts";
import type { LiloContext } from "./context.ts";

/** Chats remembered as refused; beyond this the memory starts over (a flood of strangers cannot grow it). */
const MAX_REFUSED_CHATS = 10_000;

/** What Lilo says once in a chat she does not talk in. */
export interface AccessTexts {
  /** To a stranger in a private chat. */
  refused: string;
  /** In a group, supergroup or channel: she only talks in private chats. */
  privateOnly: string;
}

/**
 * Lets only allowlisted Telegram users in private chats through and tells
 * the core who they are (`ctx.liloUserId`). Everything else — strangers,
 * and every group, supergroup or channel, even for an allowed user — gets
 * one short refusal per chat and process; nothing of it is stored, logged
 * or sent to a model, and no command runs there (a group would otherwise
 * see the owner's memory).
 */
export function accessControl(allowedUsers: Record<string, string>, texts: AccessTexts, logger: Logger): Middleware<LiloContext> {
  const refusedChats = new Set<number>();
  return async (ctx, next) => {
    const chat = ctx.chat ?? ctx.callbackQuery?.message?.chat;
    const isPrivate = chat?.type === "private";
    const userId = ctx.from ? allowedUsers[String(ctx.from.id)] : undefined;
    if (userId && isPrivate) {
      ctx.liloUserId = userId;
      return next();
    }
    // The ids only: the words of a stranger or a group stay out of the logs too.
    logger.info(isPrivate ? "telegram update from a user not on the allowlist ignored" : "telegram update outside a private chat ignored", {
      telegramUserId: ctx.from?.id ?? null,
      chatType: chat?.type ?? null,
    });
    const refusal = isPrivate ? texts.refused : texts.privateOnly;
    if (ctx.callbackQuery) return void (await ctx.answerCallbackQuery({ text: refusal }));
    // Channel posts, edits and other updates get no answer at all.
    const chatId = ctx.chat?.id;
    if (!ctx.message || chatId === undefined || refusedChats.has(chatId)) return;
    if (refusedChats.size >= MAX_REFUSED_CHATS) refusedChats.clear();
    refusedChats.add(chatId);
    await ctx.reply(refusal);
  };
}
