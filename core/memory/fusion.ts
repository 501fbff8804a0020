/**
 * Reciprocal-rank fusion of ranked lists: each list gives an item
 * weight / (k + rank). Rank-based, so a bm25 score and a cosine never need a
 * common scale; weights let the keyword side count more where it is the
 * stronger signal (names, places, rare words).
 */

/** One ranked list: ids best first, and its weight in the fusion. */
export interface RankedList {
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
