import { describeError, type Question } from "../../core/index.ts";
import { type Answer } from "../../core/internal.ts";
import type { MatrixContext, MatrixEventSource } from "./context.ts";
import { sendMarkdown, sendReaction } from "./send.ts";

/**
 * Yes/no questions on Matrix: the question is a message with the bot's own
 * 👍 and 👎 on it, so the user only taps one. The message's event id maps to
 * the question id in the bot state (persisted with the sync token), so an
 * answer still works after a restart. Typed "ja"/"nein" go to the core turn
 * like any message.
 */

const YES = new Set(["👍", "✅", "✔", "☑"]);
const NO = new Set(["👎", "❌", "✖", "🚫"]);

/** 👍 / 👎 (with any skin tone or emoji presentation selector) → yes / no; other keys → undefined. */
export function reactionAnswer(key: string): Answer | undefined {
  const bare = key.replace(/\u{FE0E}|\u{FE0F}|\u{1F3FB}|\u{1F3FC}|\u{1F3FD}|\u{1F3FE}|\u{1F3FF}/gu, "");
  if (YES.has(bare)) return "yes";
  if (NO.has(bare)) return "no";
  return undefined;
}

/** Sends `question` to the room and remembers which message asked it. */
export async function sendQuestion(ctx: MatrixContext, roomId: string, userId: string, question: Question): Promise<void> {
  const yes = question.choices.find((c) => c.value === "yes")?.label ?? "yes";
  const no = question.choices.find((c) => c.value === "no")?.label ?? "no";
  const ids = await sendMarkdown(ctx.client, roomId, `${question.text}\n\n${ctx.texts.questionHint(yes, no)}`, ctx.maxMessageChars);
  const eventId = ids.at(-1)!;
  const hints: string[] = [];
  for (const key of ["👍", "👎"]) {
    // The hints only save typing; the question works without them.
    try {
      hints.push(await sendReaction(ctx.client, roomId, eventId, key));
    } catch (err) {
      ctx.logger.debug("matrix question hint failed", { roomId, error: describeError(err) });
    }
  }
  await ctx.state.rememberQuestion(eventId, { questionId: question.id, userId, roomId, hints });
}

/**
 * A reaction on a question message: the owner's 👍 / 👎 answers it and the
 * outcome is shown; anyone else's reaction, or another emoji, does nothing.
 */
export async function handleReaction(ctx: MatrixContext, source: MatrixEventSource, relatesTo: { event_id?: unknown; key?: unknown }): Promise<void> {
  if (typeof relatesTo.event_id !== "string" || typeof relatesTo.key !== "string") return;
  const ref = ctx.state.question(relatesTo.event_id);
  const answer = reactionAnswer(relatesTo.key);
  if (!ref || !answer || ref.roomId !== source.roomId) return;
  const outcome = await ctx.lilo.questions.answer(source.userId, ref.questionId, answer);
  if (!outcome.ok && outcome.reason === "not-yours") return;
  await ctx.state.forgetQuestion(relatesTo.event_id);
  await sendMarkdown(ctx.client, source.roomId, outcome.text, ctx.maxMessageChars);
  for (const hint of ref.hints) {
    // Removing the bot's own 👍/👎 shows the question is closed; cosmetic.
    await ctx.client.redactEvent(source.roomId, hint).catch((err: unknown) => ctx.logger.debug("matrix redact failed", { error: describeError(err) }));
  }
}
