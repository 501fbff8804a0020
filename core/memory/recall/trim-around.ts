/**
 * Long turns cut around the words that matched: a passage on the sheet
 * keeps the part of a long message that answers the question, not its
 * first lines. German and English alike (folded, light-stemmed words).
 */
import { foldWord } from "./time-words.ts";
import { tokens } from "./keyword-query.ts";

/** foldWord, with a fast path for plain ASCII words (most words, and the slow part of the sheet's packing). */
const fold = (w: string): string => (/[^ -~]/.test(w) ? foldWord(w) : w.toLowerCase());

/** The mark for a cut at either end. */
const ELLIPSIS = "…";

/** Start offsets of the words in `text` that match a search word (folded, stemmed, as the keyword search matches). */
export function matchOffsets(text: string, stems: readonly string[]): number[] {
  if (!stems.length) return [];
  const out: number[] = [];
  for (const m of text.normalize("NFC").matchAll(/[\p{L}\p{N}\p{M}]+/gu)) {
    const folded = fold(m[0]);
    // Prefix match on the stem, as FTS5's "stem*" does; short stems match whole words only.
    if (stems.some((s) => (s.length >= 3 ? folded.startsWith(s) : folded === s))) out.push(m.index);
  }
  return out;
}

/** How many of the search words a text contains. */
export function matchedWords(text: string, stems: readonly string[]): Set<string> {
  const found = new Set<string>();
  for (const t of tokens(text)) {
    const folded = fold(t);
    for (const s of stems) if (s.length >= 3 ? folded.startsWith(s) : folded === s) found.add(s);
  }
  return found;
}

/**
 * The text cut to at most `maxChars` (ellipses included), keeping the window
 * with the most matching words; without any match, the beginning. Cuts fall
 * on spaces, so no word is cut in half. Unchanged when it fits.
 */
export function trimAround(text: string, stems: readonly string[], maxChars: number): string {
  const t = text.replace(/\s+/g, " ").trim();
  if (t.length <= maxChars) return t;
  const room = Math.max(1, maxChars - 2 * ELLIPSIS.length - 2);
  const hits = matchOffsets(t, stems);
  let start = 0;
  if (hits.length) {
    // The window starting a little before a match that covers the most matches (two pointers over the sorted offsets).
    let best = -1;
    let end = 0;
    for (let i = 0; i < hits.length; i++) {
      const from = Math.max(0, Math.min(hits[i]! - Math.floor(room / 5), t.length - room));
      while (end < hits.length && hits[end]! < from + room) end++;
      const n = end - hits.findIndex((x) => x >= from);
      if (n > best) [best, start] = [n, from];
    }
  }
  let from = start;
  let to = Math.min(t.length, start + room);
  if (from > 0) {
    const space = t.indexOf(" ", from);
    from = space >= 0 && space < to ? space + 1 : from;
  }
  if (to < t.length) {
    const space = t.lastIndexOf(" ", to);
    to = space > from ? space : to;
  }
  return `${from > 0 ? `${ELLIPSIS} ` : ""}${t.slice(from, to).trim()}${to < t.length ? ` ${ELLIPSIS}` : ""}`;
}
