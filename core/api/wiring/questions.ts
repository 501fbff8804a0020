/**
 * The yes/no questions Lilo asks, with what answers each kind: a derived
 * rule, forgetting, a boundary, and what is wrong with a marked memory.
 */
import { boundaryQuestionHandler } from "../../conversation/boundaries/boundary-step.ts";
import { forgetQuestionHandler } from "../../conversation/questions/forget-question.ts";
import { Questions } from "../../conversation/questions/questions.ts";
import { ruleQuestionHandler } from "../../conversation/questions/rule-question.ts";
import { wrongQuestionHandler } from "../../conversation/questions/wrong-question.ts";
import type { RulesStore } from "../../foundation/store/rules.ts";
import type { Base } from "./foundation.ts";
import type { MemoryCare } from "./memory-care.ts";

/** The questions with every built-in kind registered. */
export function wireQuestions(base: Base, rules: RulesStore, care: MemoryCare): Questions {
  const language = base.config.persona.language;
  const questions = new Questions(base.db, base.clock, language);
  questions.register(ruleQuestionHandler(rules, language));
  questions.register(forgetQuestionHandler(care.forgetting, language));
  questions.register(boundaryQuestionHandler(care.boundaries, language));
  questions.register(wrongQuestionHandler(care.feedback, language));
  return questions;
}
