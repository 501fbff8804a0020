import { describeError, type TurnResult } from "../../core/index.ts";
import type { MatrixContext, MatrixEventSource } from "./context.ts";
import { sendMarkdown, sendReaction } from "./send.ts";
import { sendQuestion } from "./questions.ts";
import { sendVoiceReply } from "./voice.ts";
import { MATRIX_MOOD_REACTIONS } from "./reactions.ts";
import { PAUSED_EMOJI } from "../shared/mood-emoji.ts";
import type { LiveAnswer } from "./live-answer.ts";

/**
 * Renders a core answer: the text, the mood as a reaction on the user's
 * message, a voice note when the person hears her (`voiceIn`: they sent
 * one; or `/voice on`), a yes/no question. With `live`, the answer was
 * shown as it was written: its messages are edited to the final text
 * instead of sent anew.
 */
export async function deliverTurn(
  ctx: MatrixContext,
  source: MatrixEventSource,
  result: TurnResult,
  how: { live?: LiveAnswer; voiceIn?: boolean } = {},
): Promise<void> {
  const { live, voiceIn = false } = how;
  if (result.duplicate) return live?.discard();
  // Held back by the budget's cap, the person told already today: a reaction says it arrived, no words.
  if (result.paused && !result.text) {
    await live?.discard();
    await sendReaction(ctx.client, source.roomId, source.eventId, PAUSED_EMOJI).catch((err: unknown) =>
      ctx.logger.debug("matrix reaction failed", { roomId: source.roomId, error: describeError(err) }),
    );
    return;
  }
  try {
    await (live ? live.finish(result.text) : sendMarkdown(ctx.client, source.roomId, result.text, ctx.maxMessageChars));
  } catch (err) {
    // Recorded, so /retry redoes the turn; the caller reports the failure.
    if (result.answerMessageId !== undefined) ctx.lilo.inbox.deliveryFailed(result.answerMessageId);
    throw err;
  }
  if (result.answerMessageId !== undefined) ctx.lilo.inbox.delivered(result.answerMessageId);
  const emoji = result.mood ? MATRIX_MOOD_REACTIONS[result.mood] : undefined;
  if (emoji) {
    await sendReaction(ctx.client, source.roomId, source.eventId, emoji).catch((err: unknown) =>
      ctx.logger.debug("matrix mood reaction failed", { roomId: source.roomId, error: describeError(err) }),
    );
  }
  // The text is out and its delivery recorded: the voice note only adds to it.
  if (result.ok && !result.paused && result.text && ctx.lilo.voice.wants(source.userId, voiceIn))
    await sendVoiceReply(ctx, source.roomId, source.userId, result.text);
  if (result.question) await sendQuestion(ctx, source.roomId, source.userId, result.question);
}
