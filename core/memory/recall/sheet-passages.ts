/**
 * The chat-log passages of one cheat sheet: the fused ranking looked at
 * deeply, optionally reordered by a cross-encoder (before the cut to the
 * budget: after it, a reranker changes nothing), then packed into the
 * characters the memory budget leaves (passage-packing.ts).
 */
import type { RecallPassage } from "./search.ts";
import { describeError } from "../../foundation/errors.ts";
import { rankMessages, type ChatRecallDeps, type ChatRecallOptions } from "./sheet-recall.ts";
import { parseRecall } from "./parse-recall.ts";
import { ftsQuery, searchWords } from "./keyword-query.ts";
import { packPassages, type SheetPassage } from "./passage-packing.ts";

/** Ranked messages a sheet looks at: far more than fit, so the packer can choose. */
export const SHEET_DEPTH = 40;

/** The cross-encoder and how many of the best candidates it reorders. */
export type SheetReranking = NonNullable<ChatRecallDeps["reranking"]>;

/** Limits of the sheet's passages: characters and most passages. */
export interface SheetPassageLimits {
  maxChars: number;
  maxPassages: number;
}

/**
 * Passages for the sheet, best first (time-only questions: oldest first),
 * within `limits`; `left` are the hits the budget left out.
 */
export async function sheetPassages(
  deps: ChatRecallDeps,
  text: string,
  o: Omit<ChatRecallOptions, "limit">,
  limits: SheetPassageLimits,
): Promise<{ kept: SheetPassage[]; left: SheetPassage[] }> {
  const parsed = parseRecall(text, deps.clock, deps.timeZone);
  const ranked = await rankMessages(deps, text, { ...o, limit: SHEET_DEPTH });
  let candidates = deps.recall.contexts(ranked);
  if (deps.reranking && candidates.length > 1) candidates = await rerank(deps.reranking, text, candidates);
  const packed = packPassages(candidates, { ...limits, stems: searchWords(parsed.terms) });
  // Without words, a time filter lists that time in order ("was war gestern?").
  if (!(ftsQuery(parsed.terms) || parsed.dates.length)) packed.kept.sort((a, b) => a.messages[0]!.id - b.messages[0]!.id);
  return packed;
}

/** The best `topN` candidates reordered by the cross-encoder's score of (question, hit); the rest keep their place after them. */
export async function rerank<T extends RecallPassage>(r: SheetReranking, query: string, candidates: T[]): Promise<T[]> {
  const head = candidates.slice(0, r.topN);
  let scores: number[];
  try {
    scores = await r.reranker.score(
      query,
      head.map((c) => c.hit.text),
    );
  } catch (err) {
    // The sheet must not fail with its reranker: the fused order is still a good order.
    r.logger.warn("reranker failed; the sheet keeps the fused order", { model: r.reranker.id, error: describeError(err) });
    return candidates;
  }
  const order = head.map((c, i) => ({ c, s: scores[i]!, i })).sort((a, b) => b.s - a.s || a.i - b.i);
  return [...order.map((x) => x.c), ...candidates.slice(r.topN)];
}
