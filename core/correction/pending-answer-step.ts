import type { Clock } from "../ports/clock.ts";
import type { Logger } from "../ports/logger.ts";
import type { ChatLog } from "../store/chat-log.ts";
import type { Questions } from "../questions/questions.ts";
import type { TurnStep } from "../turn/types.ts";
import { readYesNo } from "./yes-no.ts";

/** What the pending-answer step needs; wired in createLilo. */
export interface PendingAnswerDeps {
  questions: Questions;
  chatLog: ChatLog;
  clock: Clock;
  logger: Logger;
  /** How many first words a typed answer is read from (SPEC §7: four). */
  answerWords: number;
}

/**
 * The first check of a turn (SPEC §4.2): is this message the typed answer to
 * an open yes/no question? A clear yes or no is applied and answers the turn
 * itself, with the outcome stored as Lilo's reply so the chat log reads
 * right. Anything else discards the question (it must not fire days later)
 * and the message goes on as a normal message — never swallowed.
 * Expired questions are never answered (`questions.pending` skips them).
 */
export function pendingAnswerStep(deps: PendingAnswerDeps): TurnStep {
  return {
    name: "pending-answer",
    async before(ctx) {
      const q = deps.questions.pending(ctx.userId);
      if (!q) return;
      const answer = readYesNo(ctx.text, deps.answerWords);
      if (!answer) {
        deps.questions.discard(q.id);
        deps.logger.info("open question discarded: the reply answers something else", { userId: ctx.userId, questionId: q.id, kind: q.kind });
        return;
      }
      const outcome = await deps.questions.answer(ctx.userId, q.id, answer);
      // Lost a race (a button tap, expiry in between): treat the text as a normal message.
      if (!outcome.ok) return;
      const stored = deps.chatLog.append({
        userId: ctx.userId,
        conversationId: ctx.conversationId,
        role: "assistant",
        text: outcome.text,
        createdAt: deps.clock.now().toISOString(),
      });
      return { ok: true, text: outcome.text, userMessageId: ctx.userMessage.id, answerMessageId: stored.id, notesUsed: [] };
    },
  };
}
