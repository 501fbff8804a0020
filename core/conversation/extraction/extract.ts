import { z } from "zod";
import type { ChatModel } from "../../foundation/ports/chat-model.ts";
import { completeJson, type JsonParse } from "../../foundation/util/model-json.ts";
import { extractionRetryPrompt, extractionSystemPrompt, extractionUserPrompt } from "../prompts/extraction.ts";
import { wordsOnlyFromAssistant } from "./provenance.ts";

/** The one JSON answer of the extraction call. */
export const extractionSchema = z.object({
  facts: z.array(z.string()).default([]),
  content: z.array(z.string()).default([]),
  profile: z.array(z.object({ category: z.string().min(1), text: z.string().min(1) })).default([]),
  important: z.array(z.object({ text: z.string().min(1), weight: z.coerce.number().int().min(1).max(3).default(1) })).default([]),
});
export type Extraction = z.infer<typeof extractionSchema>;

export interface ExtractionInput {
  userName: string;
  assistantName: string;
  language: "de" | "en";
  userText: string;
  assistantText: string;
  date: string;
  /** Texts the user said before (profile etc.), so a fact they stated earlier is not mistaken for Lilo's. */
  knownUserTexts?: string[];
}

export type ExtractionOutcome =
  { ok: true; extraction: Extraction; repaired: boolean; retried: boolean; droppedFacts: string[] } | { ok: false; problem: string; raw: string };

/**
 * Runs the extraction call: zod-validated, repaired if wrapped in prose,
 * asked once more if still unusable. Facts whose words come only from
 * Lilo's answer are dropped (the "Trödeltrupp" rule).
 */
export async function extractMemories(model: ChatModel, input: ExtractionInput, maxTokens: number): Promise<ExtractionOutcome> {
  const system = extractionSystemPrompt(input);
  const user = extractionUserPrompt(input);
  const first = await completeJson(model, { system, messages: [{ role: "user", content: user }], schema: extractionSchema, maxTokens });
  let parsed: Extract<JsonParse<Extraction>, { ok: true }>;
  let retried = false;
  if (first.ok) parsed = first;
  else {
    retried = true;
    const second = await completeJson(model, {
      system,
      messages: [
        { role: "user", content: user },
        { role: "assistant", content: first.raw.slice(0, 4000) || "(empty)" },
        { role: "user", content: extractionRetryPrompt(first.problem) },
      ],
      schema: extractionSchema,
      maxTokens,
    });
    if (!second.ok) return { ok: false, problem: second.problem, raw: second.raw };
    parsed = second;
  }
  const clean = (xs: string[]) => [...new Set(xs.map((x) => x.trim()).filter(Boolean))];
  const userTexts = [input.userText, ...(input.knownUserTexts ?? [])];
  const ignore = [input.userName, input.assistantName];
  const fromUser = (t: string) => wordsOnlyFromAssistant(t, userTexts, input.assistantText, ignore).length === 0;
  const facts = clean(parsed.value.facts);
  const droppedFacts = [...facts.filter((f) => !fromUser(f)), ...parsed.value.profile.map((p) => p.text).filter((t) => !fromUser(t))];
  return {
    ok: true,
    repaired: parsed.repaired,
    retried,
    droppedFacts,
    extraction: {
      facts: facts.filter(fromUser),
      content: clean(parsed.value.content),
      profile: parsed.value.profile.map((p) => ({ category: p.category.trim().toLowerCase(), text: p.text.trim() })).filter((p) => fromUser(p.text)),
      important: parsed.value.important.map((i) => ({ text: i.text.trim(), weight: i.weight })).filter((i) => i.text),
    },
  };
}
