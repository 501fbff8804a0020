/**
 * "stimmt nicht" on /why as a question: Lilo asks what is wrong
 * about the memory. A reply in words goes with the memory to the judge
 * (core/conversation/correction/marked-wrong-step.ts), which corrects or
 * removes it; the two choices are "Löschen" (simply wrong: superseded) and
 * "Stimmt doch" (kept). Every change is in the correction log and undoable.
 * The payload keeps only the store and id: the text is read from the row,
 * so a later forget leaves nothing behind in the question.
 */
import type { VectorStore } from "../../foundation/ports/vector-index.ts";
import type { TextRow } from "../../foundation/store/text-rows.ts";
import type { Memory } from "../../memory/memory.ts";
import { applyVerdict, type FeedbackDeps } from "../correction/feedback.ts";
import type { Answer, PendingQuestion, QuestionHandler } from "./questions.ts";

export const WRONG_QUESTION = "wrong";

/** The payload of a "what is wrong?" question. */
export interface WrongQuestionPayload {
  store: VectorStore;
  id: number;
}

const quote = (language: "de" | "en", s: string) => (language === "de" ? `„${s}“` : `"${s}"`);
const undo = (language: "de" | "en", id: number) => (language === "de" ? ` (rückgängig: lilo corrections undo ${id})` : ` (undo: lilo corrections undo ${id})`);

/** Texts of the flow, in the persona's language. */
export const WRONG_TEXTS = {
  de: {
    ask: (text: string) =>
      `Was stimmt an ${quote("de", text)} nicht? Schreib mir, wie es richtig ist, dann berichtige ich es. Ist es einfach falsch: „Löschen“.`,
    labels: { yes: "Löschen", no: "Stimmt doch" },
    deleted: (text: string, id: number) => `✏️ Gelöscht: ${quote("de", text)}${undo("de", id)}`,
    rewritten: (oldText: string, newText: string, id: number) => `✏️ Berichtigt: ${quote("de", oldText)} → ${quote("de", newText)}${undo("de", id)}`,
    kept: (text: string) => `Okay, ${quote("de", text)} bleibt, wie es ist.`,
    gone: "Diesen Eintrag gibt es nicht (mehr).",
    failed: "Das konnte ich gerade nicht ändern – markiere es mit /why bitte noch einmal.",
  },
  en: {
    ask: (text: string) => `What is wrong about ${quote("en", text)}? Tell me how it really is and I'll correct it. If it is simply wrong: "Delete".`,
    labels: { yes: "Delete", no: "It's right" },
    deleted: (text: string, id: number) => `✏️ Deleted: ${quote("en", text)}${undo("en", id)}`,
    rewritten: (oldText: string, newText: string, id: number) => `✏️ Corrected: ${quote("en", oldText)} → ${quote("en", newText)}${undo("en", id)}`,
    kept: (text: string) => `Okay, ${quote("en", text)} stays as it is.`,
    gone: "There is no such entry (any more).",
    failed: "I could not change that just now – please mark it again with /why.",
  },
} as const;

/** The memory a question is about, while it is still the user's and live. */
export function markedItem(memory: Memory, q: Pick<PendingQuestion, "userId" | "payload">): (TextRow & { store: VectorStore }) | undefined {
  const p = q.payload as WrongQuestionPayload;
  const row = memory.rows[p.store]?.get(p.id);
  if (!row || row.userId !== q.userId || row.supersededAt || row.forgottenAt) return undefined;
  return { ...row, store: p.store };
}

/** "Löschen" supersedes the memory (logged, undoable); "Stimmt doch" keeps it. */
export function wrongQuestionHandler(deps: FeedbackDeps, language: "de" | "en"): QuestionHandler {
  const t = WRONG_TEXTS[language];
  return {
    kind: WRONG_QUESTION,
    async onAnswer(q: PendingQuestion, answer: Answer): Promise<string> {
      const item = markedItem(deps.memory, q);
      if (!item) return t.gone;
      if (answer === "no") return t.kept(item.text);
      const done = await applyVerdict(deps, q.userId, item, "wrong");
      return done?.correctionId !== undefined ? t.deleted(item.text, done.correctionId) : t.gone;
    },
  };
}
