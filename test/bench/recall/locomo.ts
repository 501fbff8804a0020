/**
 * Reads the LoCoMo JSON-lines split (`turns.jsonl`, `retrieval.jsonl`; see
 * the data's README — CC BY-NC, never copied into this repository).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

const turnSchema = z.object({ sample_id: z.string(), dia_id: z.string(), speaker: z.string(), text: z.string(), iso_time: z.string() });
const questionSchema = z.object({ sample_id: z.string(), question: z.string(), category: z.number(), evidence: z.array(z.string()) });

export type Turn = z.infer<typeof turnSchema>;
export type Question = z.infer<typeof questionSchema>;

function lines<T>(file: string, schema: z.ZodType<T>): T[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l, i) => {
      const r = schema.safeParse(JSON.parse(l));
      if (!r.success) throw new Error(`${file}:${i + 1}: ${r.error.message}`);
      return r.data;
    });
}

/** Turns grouped by sample (in file order) and the questions that have evidence. */
export function loadLocomo(dir: string): { samples: Map<string, Turn[]>; questions: Question[] } {
  const samples = new Map<string, Turn[]>();
  for (const t of lines(join(dir, "turns.jsonl"), turnSchema)) samples.set(t.sample_id, [...(samples.get(t.sample_id) ?? []), t]);
  const questions = lines(join(dir, "retrieval.jsonl"), questionSchema).filter((q) => q.evidence.length > 0 && q.category !== 5);
  return { samples, questions };
}

/** The text a turn is stored as: "Speaker: text". */
export const turnText = (t: Turn): string => `${t.speaker}: ${t.text}`;
