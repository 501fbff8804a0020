import type { TurnResult } from "../../core/index.ts";
import type { LiloContext, TelegramDeps } from "./context.ts";
import { react, sendQuestion, withTyping } from "./render.ts";
import { deliverAnswer } from "./deliver.ts";

/**
 * Runs one core turn for a chat and shows its result: "typing…" while the
 * core works, then the answer (split and rendered safely), the mood as a
 * reaction on the user's message, and a yes/no question with buttons.
 * Returns undefined when the core had nothing to answer (e.g. /retry).
 */
export async function runTurn(ctx: LiloContext, deps: TelegramDeps, produce: () => Promise<TurnResult | undefined>): Promise<TurnResult | undefined> {
  const chatId = ctx.chat!.id;
  const result = await withTyping(ctx.api, chatId, deps.logger, produce);
  if (!result || result.duplicate) return undefined;
  deps.lastNotes.set(String(chatId), result.notesUsed);
  await deliverAnswer(deps.lilo, ctx.api, chatId, result, deps.logger);
  if (ctx.msg) await react(ctx.api, chatId, ctx.msg.message_id, result.mood, deps.logger);
  if (result.question) await sendQuestion(ctx.api, chatId, result.question, deps.logger);
  return result;
}
