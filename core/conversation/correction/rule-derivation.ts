import { z } from "zod";
import type { ChatModel } from "../../foundation/ports/chat-model.ts";
import { completeJson } from "../../foundation/util/model-json.ts";
import { ruleSystemPrompt, ruleUserPrompt, type CorrectionPeople } from "../prompts/correction.ts";

/** A rule is one sentence; anything longer is not what we asked for. */
const MAX_RULE_CHARS = 300;

/** The derivation's answer: a rule, or null/empty for "no rule". */
export const ruleSchema = z.object({ rule: z.string().trim().max(MAX_RULE_CHARS).nullable().optional() });

/** A rule (undefined: the model saw none), or why the answer could not be used. */
export type RuleOutcome = { ok: true; rule: string | undefined; repaired: boolean } | { ok: false; problem: string };

/**
 * One call that turns a contradiction into a behaviour rule (docs/spec.md §7), or
 * says there is none. Nothing is stored here: the user confirms first.
 */
export async function deriveRule(
  model: ChatModel,
  input: CorrectionPeople & { message: string; previousAnswer: string },
  maxTokens: number,
): Promise<RuleOutcome> {
  const parsed = await completeJson(model, {
    system: ruleSystemPrompt(input),
    messages: [{ role: "user", content: ruleUserPrompt(input) }],
    schema: ruleSchema,
    maxTokens,
  });
  if (!parsed.ok) return { ok: false, problem: parsed.problem };
  const rule = parsed.value.rule?.trim();
  return { ok: true, rule: rule ? rule : undefined, repaired: parsed.repaired };
}
