/**
 * The words a forget looks for and how a derived text loses them: a row is
 * found when it holds every word as a whole word (case folded: "Köln" finds
 * "in köln", not "Kölner"), and a diary entry, thought or summary is
 * rewritten without the sentences that hold them. Only words that mean
 * something count: a single letter or a stop word would find nearly
 * everything, so a request of nothing else is refused.
 */
import { FILLER_WORDS } from "../../foundation/util/meaningful-words.ts";
import { STOP_WORDS } from "../recall/keyword-query.ts";
import { foldWord } from "../recall/time-words.ts";

/** The meaningful words of a forget request (2+ letters or digits, no stop or filler word, de and en), lower case; none when it has none. */
export function forgetWords(text: string): string[] {
  const words = text
    .normalize("NFC")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 2 && !isFiller(w));
  return [...new Set(words)];
}

/** A stop word of recall or a filler word of topics, as written or folded ("über" is listed as "uber"). */
function isFiller(word: string): boolean {
  const folded = foldWord(word);
  return STOP_WORDS.has(folded) || FILLER_WORDS.has(word) || FILLER_WORDS.has(folded);
}

/** Does `text` hold every one of `words` as a whole word (case folded; a letter or digit on either side makes it part of another word)? */
export function holdsAll(text: string, words: string[]): boolean {
  const t = text.normalize("NFC").toLowerCase();
  return words.length > 0 && words.every((w) => wholeWord(w).test(t));
}

/** `word` between two non-letters (it is made of letters and digits only, see forgetWords). */
function wholeWord(word: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}])${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\p{N}])`, "u");
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
