import type { Forgetting, ForgetOutcome, ForgetPlan } from "../memory/forgetting/forget-everywhere.ts";
import type { Questions } from "../conversation/questions/questions.ts";
import type { Question } from "../conversation/turn/types.ts";
import type { ForgetTable } from "../foundation/store/forget-rows.ts";
import { parseItemRef } from "../memory/receipts/item-ref.ts";
import { FORGET_QUESTION, FORGET_TEXTS, forgetPayload, forgetQuestionText } from "../conversation/questions/forget-question.ts";
import { itemName } from "../memory/receipts/item-names.ts";

export type { ForgetItem, ForgetOutcome, ForgetPlan } from "../memory/forgetting/forget-everywhere.ts";

/**
 * "Forget everywhere": find what holds some words (or one item),
 * show it, and after a yes remove or redact every copy. `ask` puts the yes/no
 * to the user through the questions every adapter renders (buttons,
 * reactions, typed "ja"/"yes").
 */
export interface ForgetApi {
  /**
   * Everything of the user that holds the words of `text` (whole words) or means the same. Only words that mean
   * something count; `text` of none (a single letter, stop words) throws "invalid-input" with a sentence to say.
   */
  find(userId: string, text: string): Promise<ForgetPlan>;
  /** One item by reference ("N12", "M305") and whatever holds the same; undefined when it is not the user's. */
  findItem(userId: string, ref: string): Promise<ForgetPlan | undefined>;
  /** Forgets what the plan lists (after the yes, or `lilo forget --apply`). */
  apply(plan: Pick<ForgetPlan, "userId" | "words" | "items">): Promise<ForgetOutcome>;
  /** Asks the user's yes/no for a plan; the yes forgets it. */
  ask(plan: ForgetPlan): Question;
  /** The list as the question shows it (for the CLI's dry run). */
  describe(plan: ForgetPlan): string;
  /** What to say when nothing was found. */
  readonly nothingFound: string;
  /** The name the question gives a kind of place ("notes" → "Notiz"); other names come back as they are. */
  kindName(kind: string): string;
}

const REF_TABLE: Partial<Record<string, ForgetTable>> = {
  notes: "notes",
  important: "important",
  thoughts: "thoughts",
  diary: "diary",
  profile: "profile",
  messages: "messages",
};

/** The forget use cases over the forgetting service and the questions. */
export function forgetApi(forgetting: Forgetting, questions: Questions, config: { language: "de" | "en"; questionTtlMinutes: number }): ForgetApi {
  return {
    find: (userId, text) => forgetting.find(userId, text),
    findItem: async (userId, ref) => {
      const r = parseItemRef(ref);
      const table = r && REF_TABLE[r.store];
      return table && r ? forgetting.findItem(userId, table, r.id) : undefined;
    },
    apply: (plan) => forgetting.apply(plan),
    ask: (plan) =>
      questions.ask(plan.userId, FORGET_QUESTION, forgetPayload(plan), forgetQuestionText(config.language, plan), config.questionTtlMinutes * 60_000),
    describe: (plan) => forgetQuestionText(config.language, plan),
    nothingFound: FORGET_TEXTS[config.language].nothing,
    kindName: (kind) => itemName(config.language, kind),
  };
}
