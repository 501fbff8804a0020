/**
 * Reciprocal-rank fusion of ranked lists: each list gives an item
 * weight / (k + rank). Rank-based, so a bm25 score and a cosine never need a
 * common scale; weights let the keyword side count more where it is the
 * stronger signal (names, places, rare words).
 */

/** One ranked list: ids best first, and its weight in the fusion. */
interface RankedList {
  ids: number[];
  weight: number;
}

/** Fused scores by id, best first. `k` damps the head of each list (60 in the literature). */
export function reciprocalRankFusion(lists: RankedList[], k: number): { id: number; score: number }[] {
  const scores = new Map<number, number>();
  for (const list of lists) {
    list.ids.forEach((id, rank) => scores.set(id, (scores.get(id) ?? 0) + list.weight / (k + rank + 1)));
  }
  return [...scores.entries()].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score || b.id - a.id);
}

/**
 * The ranking with the messages `lower` picks at `share` of their score
 * (1 = unchanged), best first; named dates still first. A soft preference:
 * lowered messages stay in the ranking, only behind better ones.
 */
export function lowerWhere<T extends { id: number; score: number; inDateRange: boolean }>(ranked: T[], lower: (id: number) => boolean, share: number): T[] {
  if (!(share < 1)) return ranked;
  return ranked
    .map((h) => (lower(h.id) ? { ...h, score: h.score * share } : h))
    .sort((a, b) => Number(b.inDateRange) - Number(a.inDateRange) || b.score - a.score);
}
