import type { Receipts, WhyItem, WhyView } from "../memory/receipts/receipts.ts";
import { parseItemRef } from "../memory/receipts/item-ref.ts";
import { applyVerdict, type FeedbackDeps, type Verdict, type VerdictOutcome } from "../conversation/correction/feedback.ts";
import type { Questions } from "../conversation/questions/questions.ts";
import { WRONG_QUESTION, WRONG_TEXTS, type WrongQuestionPayload } from "../conversation/questions/wrong-question.ts";
import { VECTOR_STORES, type VectorStore } from "../foundation/ports/vector-index.ts";

export type { WhyItem, WhyView, WhyAction } from "../memory/receipts/receipts.ts";
export type { Verdict, VerdictOutcome } from "../conversation/correction/feedback.ts";

/**
 * Receipts and /why: what an answer's sheet held, with where each
 * memory came from, and the user's verdict on one of them. The same use
 * cases for every adapter, the CLI and (later) the web pages.
 */
export interface WhyApi {
  /** The user's newest answer's receipt, or that of `answerId` when it is theirs. */
  why(userId: string, answerId?: number): WhyView | undefined;
  /** The receipts of the user's newest `limit` answers, newest first (Lilo's pages). */
  recent(userId: string, limit: number): WhyView[];
  /** The receipt of any answer (`lilo why <answer id>`, the operator). */
  forAnswer(answerId: number): WhyView | undefined;
  /** One of the user's items by reference ("N12"), as it is now. */
  item(userId: string, ref: string): WhyItem | undefined;
  /**
   * "stimmt nicht" / "veraltet" on one of the user's items. "veraltet":
   * superseded with the date and logged (undo: `lilo corrections undo <id>`).
   * "stimmt nicht" on a memory asks what is wrong (`question`); the reply goes
   * to the judge, which corrects or removes it, logged and undoable. A
   * profile entry goes at once, logged with its category (undo restores it);
   * a rule is switched off. Undefined for an item that is not theirs or gone.
   */
  verdict(userId: string, ref: string, verdict: Verdict): Promise<VerdictOutcome | undefined>;
}

/** The /why use cases over the receipts and the correction path. */
export function whyApi(receipts: Receipts, feedback: FeedbackDeps, ask: { questions: Questions; language: "de" | "en"; questionTtlMinutes: number }): WhyApi {
  const item = (userId: string, ref: string) => {
    const r = parseItemRef(ref);
    return r ? receipts.item(userId, r.store, r.id) : undefined;
  };
  return {
    why: (userId, answerId) => receipts.view(userId, answerId),
    recent: (userId, limit) => receipts.recent(userId, limit),
    forAnswer: (answerId) => receipts.view(undefined, answerId),
    item,
    verdict: async (userId, ref, verdict) => {
      const found = item(userId, ref);
      if (!found || !found.actions.includes(verdict)) return undefined;
      if (verdict === "wrong" && (VECTOR_STORES as readonly string[]).includes(found.store)) {
        const payload: WrongQuestionPayload = { store: found.store as VectorStore, id: found.id };
        const t = WRONG_TEXTS[ask.language];
        const question = ask.questions.ask(userId, WRONG_QUESTION, payload, t.ask(found.text), ask.questionTtlMinutes * 60_000, t.labels);
        return { store: found.store, id: found.id, text: found.text, verdict, question };
      }
      return applyVerdict(feedback, userId, found, verdict);
    },
  };
}
