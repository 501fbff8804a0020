import type { Clock } from "../ports/clock.ts";
import type { Logger } from "../ports/logger.ts";
import type { ChatLog } from "../store/chat-log.ts";
import type { PendingQuestion, Questions } from "../questions/questions.ts";
import type { TurnContext, TurnStep } from "../turn/types.ts";
import { questionAnsweredHint, questionDiscardedHint } from "../prompts/correction.ts";
import { readYesNo, words } from "./yes-no.ts";

/** What the pending-answer step needs; wired in createLilo. */
export interface PendingAnswerDeps {
  questions: Questions;
  chatLog: ChatLog;
  clock: Clock;
  logger: Logger;
  /** How many first words a typed answer is read from (SPEC §7: four). */
  answerWords: number;
  language: "de" | "en";
}

/** Turns whose message answered an open question; they ask no new one. */
const answeredTurns = new WeakSet<TurnContext>();

/**
 * Did this turn's message answer an open question? Then the turn proposes no
 * new rule: the user just said yes or no to one, and a "no" must not be
 * followed by the same question at once.
 */
export function answeredQuestionInTurn(ctx: TurnContext): boolean {
  return answeredTurns.has(ctx);
}

/**
 * The first check of a turn (SPEC §4.2): is this message the typed answer to
 * an open yes/no question? A clear yes or no is applied. A short answer
 * answers the turn itself, with the outcome stored as Lilo's reply so the
 * chat log reads right; a longer message ("Lass uns über Fußball reden",
 * "Ja, und wie war dein Tag?") goes on as a normal message with the outcome
 * as a hint — never swallowed. Anything else discards the question (it must
 * not fire days later) and the message goes on as a normal message, with a
 * hint so Lilo mentions that she will not remember it.
 * Expired questions are never answered (`questions.pending` skips them), and
 * neither is a question the user never saw (its turn failed).
 */
export function pendingAnswerStep(deps: PendingAnswerDeps): TurnStep {
  return {
    name: "pending-answer",
    async before(ctx) {
      const q = deps.questions.pending(ctx.userId);
      if (!q) return;
      if (!wasShown(deps.chatLog, q, ctx.userMessage.id)) {
        deps.questions.discard(q.id);
        deps.logger.info("open question discarded: the turn that asked it was never answered", { userId: ctx.userId, questionId: q.id, kind: q.kind });
        return;
      }
      const answer = readYesNo(ctx.text, deps.answerWords);
      if (!answer) {
        deps.questions.discard(q.id);
        deps.logger.info("open question discarded: the reply answers something else", { userId: ctx.userId, questionId: q.id, kind: q.kind });
        const rule = (q.payload as { rule?: unknown } | null)?.rule;
        ctx.extras.push(questionDiscardedHint(deps.language, typeof rule === "string" ? rule : undefined));
        return;
      }
      const outcome = await deps.questions.answer(ctx.userId, q.id, answer);
      // Lost a race (a button tap, expiry in between): treat the text as a normal message.
      if (!outcome.ok) return;
      answeredTurns.add(ctx);
      if (words(ctx.text).length > deps.answerWords) {
        ctx.extras.push(questionAnsweredHint(deps.language, outcome.text));
        return;
      }
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

/**
 * Was the question on screen? A question tied to a message is shown with
 * Lilo's reply to that message; when that turn failed there is no reply, and
 * a retry of the same message must not read the message as its own answer
 * ("Okay, das stimmt so nicht" would confirm a rule nobody saw).
 */
function wasShown(chatLog: ChatLog, q: PendingQuestion, currentMessageId: number): boolean {
  const source = (q.payload as { sourceMessageId?: unknown } | null)?.sourceMessageId;
  if (typeof source !== "number") return true;
  const asked = chatLog.get(source);
  if (!asked || source >= currentMessageId) return false;
  const reply = chatLog.previousAssistant(asked.conversationId, currentMessageId);
  return reply !== undefined && reply.id > source;
}
