import type { Question } from "../conversation/turn/types.ts";
import type { Answer, AnswerOutcome, PendingQuestion, Questions } from "../conversation/questions/questions.ts";

/**
 * Open yes/no questions Lilo asked, and their answers. `ask` lets a turn step
 * of one's own (`LiloPorts.steps`) ask a question of a registered kind
 * ("rule") the way the correction step does.
 */
export interface QuestionsApi {
  /** The user's open question, if it has not expired. */
  pending(userId: string): PendingQuestion | undefined;
  /** A question by id, open or not. */
  get(id: number): PendingQuestion | undefined;
  /** Stores a question of a registered `kind`; a newer question of the same user replaces any still open one. */
  ask(userId: string, kind: string, payload: unknown, text: string, ttlMs: number): Question;
  /** Applies a yes/no answer (button, reaction); only the question's owner can answer. */
  answer(userId: string, questionId: number, answer: Answer): Promise<AnswerOutcome>;
}

/** The questions API over Lilo's questions. */
export function questionsApi(questions: Questions): QuestionsApi {
  return {
    pending: (userId) => questions.pending(userId),
    get: (id) => questions.get(id),
    ask: (userId, kind, payload, text, ttlMs) => questions.ask(userId, kind, payload, text, ttlMs),
    answer: (userId, questionId, answer) => questions.answer(userId, questionId, answer),
  };
}
