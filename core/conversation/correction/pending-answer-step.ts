import type { Clock } from "../../foundation/ports/clock.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import type { ChatLog } from "../../foundation/store/chat-log.ts";
import type { PendingQuestion, Questions } from "../questions/questions.ts";
import type { TurnContext, TurnMiddleware } from "../turn/types.ts";
import { questionAnsweredHint, questionDiscardedHint } from "../prompts/correction.ts";
import { readYesNo, words } from "./yes-no.ts";

/** The collaborators of the pending-answer check. */
interface PendingAnswerServices {
  questions: Questions;
  chatLog: ChatLog;
  clock: Clock;
  logger: Logger;
}

/** Its configuration. */
interface PendingAnswerConfig {
  /** How many first words a typed answer is read from (docs/spec.md §7: four). */
  answerWords: number;
  language: "de" | "en";
}

/**
 * The first check of a turn (docs/spec.md §4.2): is this message the typed answer to
 * an open yes/no question? A clear yes or no is applied. A short answer
 * answers the turn itself, with the outcome stored as Lilo's reply so the
 * chat log reads right; a longer message ("Lass uns über Fußball reden",
 * "Ja, und wie war dein Tag?") goes on as a normal message with the outcome
 * as a hint — never swallowed. Anything else discards the question (it must
 * not fire days later) and the message goes on as a normal message, with a
 * hint so Lilo mentions that she will not remember it.
 * Expired questions are never answered (`questions.pending` skips them), and
 * neither is a question the user never saw (its turn failed).
 * A message that answered sets `ctx.flags.answeredQuestion`: the turn then
 * proposes no new rule (a "no" must not be followed by the same question).
 */
export function pendingAnswer(deps: PendingAnswerServices, config: PendingAnswerConfig): TurnMiddleware {
  return {
    name: "pending-answer",
    async run(ctx, next) {
      if (await answerQuestion(deps, config, ctx)) return;
      await next();
    },
  };
}

/** Applies a typed answer; true when the answer is the whole turn (`ctx.result` set). */
async function answerQuestion(deps: PendingAnswerServices, config: PendingAnswerConfig, ctx: TurnContext): Promise<boolean> {
  const q = deps.questions.pending(ctx.userId);
  if (!q) return false;
  if (!wasShown(deps.chatLog, q, ctx.userMessage.id)) {
    deps.questions.discard(q.id);
    deps.logger.info("open question discarded: the turn that asked it was never answered", { userId: ctx.userId, questionId: q.id, kind: q.kind });
    return false;
  }
  const answer = readYesNo(ctx.text, config.answerWords);
  if (!answer) {
    deps.questions.discard(q.id);
    deps.logger.info("open question discarded: the reply answers something else", { userId: ctx.userId, questionId: q.id, kind: q.kind });
    const rule = (q.payload as { rule?: unknown } | null)?.rule;
    ctx.sheet.questionOutcome = questionDiscardedHint(config.language, typeof rule === "string" ? rule : undefined);
    return false;
  }
  const outcome = await deps.questions.answer(ctx.userId, q.id, answer);
  // Lost a race (a button tap, expiry in between): treat the text as a normal message.
  if (!outcome.ok) return false;
  ctx.flags.answeredQuestion = true;
  if (words(ctx.text).length > config.answerWords) {
    ctx.sheet.questionOutcome = questionAnsweredHint(config.language, outcome.text);
    return false;
  }
  answerTurnWith(deps, ctx, outcome.text);
  return true;
}

/** Answers the turn with `text` (no model call), stored as Lilo's reply so the chat log reads right. */
export function answerTurnWith(deps: { chatLog: ChatLog; clock: Clock }, ctx: TurnContext, text: string): void {
  const stored = deps.chatLog.append({
    userId: ctx.userId,
    conversationId: ctx.conversationId,
    role: "assistant",
    text,
    createdAt: deps.clock.now().toISOString(),
  });
  ctx.result = { ok: true, text, userMessageId: ctx.userMessage.id, answerMessageId: stored.id, notesUsed: [] };
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
