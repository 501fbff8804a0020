import { z } from "zod";
import type { ChatModel } from "../../foundation/ports/chat-model.ts";
import { completeJson, type JsonParse } from "../../foundation/util/model-json.ts";
import { extractionRetryPrompt, extractionSystemPrompt, extractionUserPrompt } from "../prompts/extraction.ts";
import { IMPORTANT_WEIGHT, STORE_VALUES, describeValueIssues, type StoreValues } from "../../foundation/store/values.ts";
import { wordsOnlyFromAssistant } from "./provenance.ts";
import { normalizeSubject, subjectOf, type Subject } from "./subject.ts";

const WEIGHTS = Array.from({ length: IMPORTANT_WEIGHT.max - IMPORTANT_WEIGHT.min + 1 }, (_, i) => IMPORTANT_WEIGHT.min + i);

/** A fact as the model may write it: the text alone, or with whom it is about. */
const factItem = z.union([z.string(), z.object({ text: z.string(), about: z.unknown().optional() })]);

/**
 * The shape of the one JSON answer of the extraction call. Only the shape:
 * the values of each item (a profile category, a weight) are checked item by
 * item against the stores' own rules (values.ts), so one bad item is dropped
 * and the good ones are kept.
 */
const extractionSchema = z.object({
  facts: z.array(factItem).default([]),
  content: z.array(z.string()).default([]),
  profile: z.array(z.object({ category: z.unknown(), text: z.unknown() })).default([]),
  important: z.array(z.object({ text: z.unknown(), weight: z.unknown().optional(), about: z.unknown().optional() })).default([]),
});

/**
 * The same answer as a grammar-constrained model may write it: every value
 * typed, so the longest possible answer still fits the extraction's token
 * budget (a local model; see providers/local/json-budget.ts). Any answer of
 * this shape also parses as `extractionSchema`.
 */
export const extractionGrammar = z.object({
  facts: z.array(z.object({ text: z.string(), about: z.string().optional() })),
  content: z.array(z.string()),
  profile: z.array(z.object({ category: z.string(), text: z.string() })),
  // The weight as its few allowed values: a bare integer lets a weak model write digits until 440432E44.
  important: z.array(z.object({ text: z.string(), weight: z.literal(WEIGHTS), about: z.string().optional() })),
});

/** What an extraction stores: notes, profile facts and important memories, each already within its store's rules. */
export interface Extraction {
  facts: { text: string; about: Subject }[];
  content: string[];
  profile: StoreValues<"profile">[];
  important: (StoreValues<"important"> & { weight: number; about: Subject })[];
}

interface ExtractionInput {
  userName: string;
  /** False while Lilo does not know the user's name: facts are then written without one, never "User …". */
  named?: boolean;
  assistantName: string;
  language: "de" | "en";
  userText: string;
  assistantText: string;
  date: string;
  /** Texts the user said before (profile etc.), so a fact they stated earlier is not mistaken for Lilo's. */
  knownUserTexts?: string[];
  /** Outside text (pages, search results, feed items) the answer was written with: nothing of it may become a memory. */
  outside?: string[];
}

type ExtractionOutcome =
  | {
      ok: true;
      extraction: Extraction;
      repaired: boolean;
      retried: boolean;
      droppedFacts: string[];
      /** Items dropped because a value breaks its store's rules, each with the rule ("profile "bogus": profile category must be one of …"). */
      invalidItems: string[];
    }
  | { ok: false; problem: string; raw: string };

/**
 * Runs the extraction call: zod-validated, repaired if wrapped in prose,
 * asked once more if still unusable. Facts whose words come only from
 * Lilo's answer are dropped (the "Trödeltrupp" rule).
 */
export async function extractMemories(model: ChatModel, input: ExtractionInput, maxTokens: number): Promise<ExtractionOutcome> {
  const system = extractionSystemPrompt(input);
  const user = extractionUserPrompt(input);
  const first = await completeJson(model, {
    system,
    messages: [{ role: "user", content: user }],
    schema: extractionSchema,
    grammar: extractionGrammar,
    maxTokens,
  });
  let parsed: Extract<JsonParse<z.infer<typeof extractionSchema>>, { ok: true }>;
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
      grammar: extractionGrammar,
      maxTokens,
    });
    if (!second.ok) return { ok: false, problem: second.problem, raw: second.raw };
    parsed = second;
  }
  const clean = (xs: string[]) => [...new Set(xs.map((x) => x.trim()).filter(Boolean))];
  const userTexts = [input.userText, ...(input.knownUserTexts ?? [])];
  const ignore = [input.userName, input.assistantName];
  const names = { userName: input.userName, assistantName: input.assistantName };
  const outside = (input.outside ?? []).join("\n");
  // After a lookup, nothing whose words stand only in the outside text is kept, whatever the store.
  const notOutside = (t: string) => !outside || wordsOnlyFromAssistant(t, userTexts, outside, ignore).length === 0;
  const fromUser = (t: string) => wordsOnlyFromAssistant(t, userTexts, input.assistantText, ignore).length === 0 && notOutside(t);
  const about = (text: string, said: unknown): Subject => normalizeSubject(said, names) ?? subjectOf(text, names);
  const rawFacts = parsed.value.facts.map((f) => (typeof f === "string" ? { text: f.trim(), about: undefined } : { text: f.text.trim(), about: f.about }));
  const seen = new Set<string>();
  const facts = rawFacts.filter((f) => f.text && !seen.has(f.text) && seen.add(f.text)).map((f) => ({ text: f.text, about: about(f.text, f.about) }));
  const invalidItems: string[] = [];
  const valid = <S extends "profile" | "important">(store: S, items: Record<string, unknown>[]): StoreValues<S>[] =>
    items.flatMap((item) => {
      const r = STORE_VALUES[store].safeParse(item);
      if (r.success) return [r.data as StoreValues<S>];
      invalidItems.push(`${store} ${JSON.stringify(item).slice(0, 200)}: ${describeValueIssues(r.error)}`);
      return [];
    });
  const profile = valid("profile", parsed.value.profile);
  // A weight may come as "2"; a missing one is the default 1.
  const important = valid(
    "important",
    parsed.value.important.map((i) => ({ text: i.text, weight: typeof i.weight === "string" ? Number(i.weight) : (i.weight ?? 1) })),
  ).map((i, n) => ({ text: i.text, weight: i.weight ?? 1, about: about(i.text, parsed.value.important[n]?.about) }));
  const droppedFacts = [
    ...facts.filter((f) => !fromUser(f.text)).map((f) => f.text),
    ...profile.map((p) => p.text).filter((t) => !fromUser(t)),
    ...important.map((i) => i.text).filter((t) => !notOutside(t)),
  ];
  return {
    ok: true,
    repaired: parsed.repaired,
    retried,
    droppedFacts,
    invalidItems,
    extraction: {
      facts: facts.filter((f) => fromUser(f.text)),
      content: clean(parsed.value.content).filter(notOutside),
      profile: profile.filter((p) => fromUser(p.text)),
      important: important.filter((i) => notOutside(i.text)),
    },
  };
}
