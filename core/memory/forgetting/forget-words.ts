/**
 * The words a forget looks for and how a derived text loses them: a row is
 * found when it holds every word (as a substring, case folded), and a diary
 * entry, thought or summary is rewritten without the sentences that hold them.
 */
import { FILLER_WORDS } from "../../foundation/util/meaningful-words.ts";
import { STOP_WORDS } from "../recall/keyword-query.ts";

/** The words of a forget request (2+ letters, no filler); the whole text when nothing else is left. */
export function forgetWords(text: string): string[] {
  const words = text
    .normalize("NFC")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 2 && !STOP_WORDS.has(w.toLowerCase()) && !FILLER_WORDS.has(w.toLowerCase()));
  const unique = [...new Set(words.map((w) => w.toLowerCase()))];
  return unique.length ? unique : text.trim() ? [text.trim().toLowerCase()] : [];
}

/** Does `text` hold every one of `words` (case folded, as substrings)? */
export function holdsAll(text: string, words: string[]): boolean {
  const t = text.toLowerCase();
  return words.length > 0 && words.every((w) => t.includes(w));
}

/**
 * `text` without its sentences that hold every word; empty when nothing
 * else is left or when the words still meet across sentences (then the
 * whole row must go).
 */
export function withoutSentences(text: string, words: string[]): string {
  const sentences = text.split(/(?<=[.!?…])\s+|\n+/u);
  const kept = sentences
    .filter((s) => !holdsAll(s, words))
    .join(" ")
    .trim();
  return holdsAll(kept, words) ? "" : kept;
}
