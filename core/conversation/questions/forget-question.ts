/**
 * The yes/no before "forget everywhere": the question lists what
 * was found; a yes forgets all of it (core/memory/forgetting/), a no keeps
 * everything. The payload keeps only ids and the words; the forget scrubs the
 * words from the question row itself afterwards.
 */
import type { ForgetOutcome, ForgetPlan, Forgetting } from "../../memory/forgetting/forget-everywhere.ts";
import type { PendingQuestion, QuestionHandler, Answer } from "./questions.ts";
import { itemName } from "../../memory/receipts/item-names.ts";

export const FORGET_QUESTION = "forget";

/** Items listed in the question at most; the rest is counted. */
const LISTED = 12;
const CLIP = 120;

/** The payload of a forget question. */
interface ForgetQuestionPayload {
  words: string[];
  items: { kind: ForgetPlan["items"][number]["kind"]; id: number; match: "words" | "meaning" }[];
}

/** Texts of the forget flow, in the persona's language. */
export const FORGET_TEXTS = {
  de: {
    head: (n: number) => `Das habe ich gefunden (${n}):`,
    more: (n: number) => `… und ${n} weitere.`,
    ask: "Soll ich das alles vergessen? Nachrichten werden geschwärzt, Zusammenfassungen umgeschrieben.",
    nothing: "Dazu finde ich nichts in meinen Erinnerungen.",
    done: (o: ForgetOutcome) => `🗑 Vergessen: ${o.removed} entfernt, ${o.rewritten} umgeschrieben, ${o.redacted} Nachrichten geschwärzt.`,
    kept: "Okay, ich vergesse nichts.",
    rewrite: "wird umgeschrieben",
  },
  en: {
    head: (n: number) => `This is what I found (${n}):`,
    more: (n: number) => `… and ${n} more.`,
    ask: "Shall I forget all of it? Messages are blacked out, summaries rewritten.",
    nothing: "I find nothing about that in my memories.",
    done: (o: ForgetOutcome) => `🗑 Forgotten: ${o.removed} removed, ${o.rewritten} rewritten, ${o.redacted} messages blacked out.`,
    kept: "Okay, I won't forget anything.",
    rewrite: "will be rewritten",
  },
} as const;

/** The question text listing what a forget found. */
export function forgetQuestionText(language: "de" | "en", plan: ForgetPlan): string {
  const t = FORGET_TEXTS[language];
  const clip = (s: string) => {
    const flat = s.replace(/\s+/g, " ").trim();
    return flat.length > CLIP ? `${flat.slice(0, CLIP - 1)}…` : flat;
  };
  const lines = plan.items
    .slice(0, LISTED)
    .map((i) => `- ${itemName(language, i.kind)} #${i.id}: ${clip(i.text)}${i.action === "rewrite" ? ` (${t.rewrite})` : ""}`);
  const more = plan.items.length > LISTED ? [t.more(plan.items.length - LISTED)] : [];
  return [t.head(plan.items.length), ...lines, ...more, "", t.ask].join("\n");
}

/** The payload for a plan. */
export function forgetPayload(plan: ForgetPlan): ForgetQuestionPayload {
  return { words: plan.words, items: plan.items.map((i) => ({ kind: i.kind, id: i.id, match: i.match })) };
}

/** A yes forgets what the question listed. */
export function forgetQuestionHandler(forgetting: Forgetting, language: "de" | "en"): QuestionHandler {
  return {
    kind: FORGET_QUESTION,
    async onAnswer(q: PendingQuestion, answer: Answer): Promise<string> {
      if (answer === "no") return FORGET_TEXTS[language].kept;
      const p = q.payload as ForgetQuestionPayload;
      const items = p.items.map((i) => ({ ...i, text: "", createdAt: "", action: "remove" as const }));
      return FORGET_TEXTS[language].done(await forgetting.apply({ userId: q.userId, words: p.words, items }));
    },
  };
}
