import type { RulesStore } from "../../foundation/store/rules.ts";
import type { PendingQuestion, QuestionHandler, Answer } from "./questions.ts";

/** Payload of a learned-rule question. */
export interface RuleQuestionPayload {
  rule: string;
  sourceMessageId?: number;
}

export const RULE_QUESTION = "rule";

export const RULE_QUESTION_TEXTS = {
  de: {
    ask: (rule: string) => `Soll ich mir das merken? 📌 „${rule}“`,
    saved: (rule: string) => `📌 Gemerkt: „${rule}“`,
    dropped: "Okay, ich merke mir das nicht.",
  },
  en: { ask: (rule: string) => `Shall I remember this? 📌 "${rule}"`, saved: (rule: string) => `📌 Saved: "${rule}"`, dropped: "Okay, I won't remember that." },
} as const;

/** The question text for a proposed rule. */
export function ruleQuestionText(language: "de" | "en", rule: string): string {
  return RULE_QUESTION_TEXTS[language].ask(rule);
}

/** A "yes" stores the rule; rules never arise without it. */
export function ruleQuestionHandler(rules: RulesStore, language: "de" | "en"): QuestionHandler {
  return {
    kind: RULE_QUESTION,
    onAnswer(q: PendingQuestion, answer: Answer, now: Date): string {
      const p = q.payload as RuleQuestionPayload;
      if (answer === "no") return RULE_QUESTION_TEXTS[language].dropped;
      rules.add(q.userId, p.rule, now.toISOString(), p.sourceMessageId);
      return RULE_QUESTION_TEXTS[language].saved(p.rule);
    },
  };
}
