/**
 * Reads scored rows best first — score descending, then id descending, the
 * order of the chat log's FTS5 query — a page at a time: each page is
 * selected (quickselect) from what is left and only it is sorted, so a
 * search that reads 100 of 15,000 matches sorts a few hundred, not all.
 */

/** True when row a comes before row b: higher score, or the same score and a higher id. */
const before = (sa: number, ia: number, sb: number, ib: number): boolean => sa > sb || (sa === sb && ia > ib);

/** Moves the `k` best of idx[lo, hi) to idx[lo, lo + k) (in no order). */
function selectBest(idx: Int32Array, lo: number, hi: number, k: number, scores: Float64Array, ids: Float64Array): void {
  let l = lo;
  let r = hi - 1;
  const target = lo + k - 1;
  while (r > l) {
    const p = idx[(l + r) >> 1]!;
    const [ps, pi] = [scores[p]!, ids[p]!];
    let i = l;
    let j = r;
    while (i <= j) {
      while (before(scores[idx[i]!]!, ids[idx[i]!]!, ps, pi)) i++;
      while (before(ps, pi, scores[idx[j]!]!, ids[idx[j]!]!)) j--;
      if (i <= j) {
        const t = idx[i]!;
        idx[i++] = idx[j]!;
        idx[j--] = t;
      }
    }
    if (target <= j) r = j;
    else if (target >= i) l = i;
    else return;
  }
}

/**
 * `n` rows (positions into `ids`/`scores`, listed in `idx`) best first,
 * `firstPage` selected at first and four times as many each time the reader
 * goes further.
 */
export function* bestFirst(idx: Int32Array, n: number, scores: Float64Array, ids: Float64Array, firstPage: number): IterableIterator<number> {
  for (let done = 0, page = firstPage; done < n; page *= 4) {
    const k = Math.min(page, n - done);
    if (done + k < n) selectBest(idx, done, n, k, scores, ids);
    const slice = Array.from(idx.subarray(done, done + k)).sort((a, b) => scores[b]! - scores[a]! || ids[b]! - ids[a]!);
    yield* slice;
    done += k;
  }
}
