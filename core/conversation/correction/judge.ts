import { z } from "zod";
import type { ChatModel } from "../../foundation/ports/chat-model.ts";
import { completeJson } from "../../foundation/util/model-json.ts";
import { judgeSystemPrompt, judgeUserPrompt, type CorrectionPeople, type JudgeCandidate } from "../prompts/correction.ts";
import { markedWrongSystemPrompt } from "../prompts/marked-wrong.ts";

/** One verdict of the judge; a rewrite without new text is not a valid answer. */
const verdictSchema = z
  .object({
    id: z.coerce.string().trim().min(1),
    action: z.enum(["keep", "delete", "rewrite"]),
    text: z.string().trim().optional(),
    reason: z.string().trim().default(""),
  })
  .refine((v) => v.action !== "rewrite" || !!v.text, { message: "a rewrite needs the new text", path: ["text"] });

/** The judge's whole answer. */
export const judgeSchema = z.object({ verdicts: z.array(verdictSchema) });

/** One validated verdict: keep, delete, or rewrite with the new text. */
export type Verdict = z.infer<typeof verdictSchema>;

/** The judge's verdicts, or why its answer could not be used. */
export type JudgeOutcome = { ok: true; verdicts: Verdict[]; repaired: boolean; unknownIds: string[] } | { ok: false; problem: string };

/**
 * Asks the judge model about the candidates. The answer is validated; a
 * malformed one is reported (the caller changes nothing). Verdicts for ids
 * that were not shown are dropped, and a candidate without a verdict is kept.
 * `markedWrong`: the user marked the one candidate wrong on /why and the
 * message says what is wrong, so the judge's default is no longer "keep".
 */
export async function judgeCandidates(
  model: ChatModel,
  input: CorrectionPeople & { message: string; previousAnswer: string | undefined; candidates: JudgeCandidate[]; markedWrong?: boolean },
  maxTokens: number,
): Promise<JudgeOutcome> {
  const parsed = await completeJson(model, {
    system: input.markedWrong ? markedWrongSystemPrompt(input) : judgeSystemPrompt(input),
    messages: [{ role: "user", content: judgeUserPrompt(input) }],
    schema: judgeSchema,
    maxTokens,
  });
  if (!parsed.ok) return { ok: false, problem: parsed.problem };
  const shown = new Set(input.candidates.map((c) => c.id));
  const byId = new Map<string, Verdict>();
  const unknownIds: string[] = [];
  for (const v of parsed.value.verdicts) {
    const id = v.id.toLowerCase();
    const earlier = byId.get(id);
    if (!shown.has(id)) unknownIds.push(v.id);
    else if (!earlier) byId.set(id, { ...v, id });
    // A judge that contradicts itself about one candidate is in doubt: keep.
    else if (earlier.action !== v.action || earlier.text !== v.text) byId.set(id, { id, action: "keep", reason: "contradictory verdicts" });
  }
  const verdicts = [...byId.values()];
  return { ok: true, verdicts, repaired: parsed.repaired, unknownIds };
}
