import type { TurnOptions, TurnResult } from "../../core/index.ts";
import type { LiloContext, TelegramDeps } from "./context.ts";
import { react, reactWith, sendQuestion, setKeyboard, withTyping } from "./render.ts";
import { PAUSED_REACTION } from "./reactions.ts";
import { deliverAnswer } from "./deliver.ts";
import { LiveAnswer } from "./live-answer.ts";
import { sendVoiceReply } from "./voice.ts";

/**
 * Runs one core turn for a chat and shows its result: "typing…" while the
 * core works and the answer as it is written (drafts, or a message that is
 * edited; see live-answer.ts), then the answer (split and rendered safely,
 * sent once), the mood as a
 * reaction on the user's message, and a yes/no question with buttons (the
 * buttons of an earlier question in this chat go once the next message has
 * settled it).
 * After the text, a voice note when the person hears her (`voiceIn`: they
 * sent one; or `/voice on`).
 * Returns undefined when the core had nothing to answer (e.g. /retry).
 */
export async function runTurn(
  ctx: LiloContext,
  deps: TelegramDeps,
  produce: (options: TurnOptions) => Promise<TurnResult | undefined>,
  voiceIn = false,
): Promise<TurnResult | undefined> {
  const chatId = ctx.chat!.id;
  const live = new LiveAnswer(
    { api: ctx.api, previews: deps.previews, logger: deps.logger, draftsRefused: deps.draftsRefused, stopLabel: deps.texts.stopWriting },
    chatId,
  );
  deps.live.start(chatId, live);
  let result: TurnResult | undefined;
  try {
    result = await withTyping(ctx.api, chatId, deps.logger, () => produce(live.options()));
  } finally {
    deps.live.end(chatId, live);
    await live.close();
  }
  // A typed answer (or a reply that discards the question) settled the open question: its buttons go.
  const stale = deps.questionMessages.get(String(chatId));
  if (stale !== undefined) {
    deps.questionMessages.delete(String(chatId));
    await setKeyboard(ctx.api, chatId, stale, [], deps.logger);
  }
  if (!result || result.duplicate) return undefined;
  // Held back by the budget's cap, the person told already today: a reaction says it arrived, no words.
  if (result.paused && !result.text) {
    if (ctx.msg) await reactWith(ctx.api, chatId, ctx.msg.message_id, PAUSED_REACTION, deps.logger);
    return result;
  }
  deps.lastNotes.set(String(chatId), result.notesUsed);
  const sent = await deliverAnswer(deps.lilo, ctx.api, chatId, result, deps.logger, live);
  // A reply with /why to one of these messages explains this answer.
  if (result.answerMessageId !== undefined) for (const id of sent) deps.answerMessages.set(`${chatId}:${id}`, result.answerMessageId);
  if (ctx.msg) await react(ctx.api, chatId, ctx.msg.message_id, result.mood, deps.logger);
  // The text is out and its delivery recorded: the voice note only adds to it.
  if (result.ok && !result.paused && result.text && deps.lilo.voice.wants(ctx.liloUserId, voiceIn)) {
    const voiceId = await sendVoiceReply(deps.lilo, ctx.api, chatId, ctx.liloUserId, result.text, deps.logger);
    if (voiceId !== undefined && result.answerMessageId !== undefined) deps.answerMessages.set(`${chatId}:${voiceId}`, result.answerMessageId);
  }
  if (result.question) {
    const messageId = await sendQuestion(ctx.api, chatId, result.question, deps.logger);
    if (messageId !== undefined) deps.questionMessages.set(String(chatId), messageId);
  }
  return result;
}
