/**
 * Turns free text (a chat message, a question, a [RECALL:] payload) into an
 * FTS5 MATCH expression for bm25 ranking, German and English: stop words
 * out, each remaining word reduced by light suffix stripping and matched as
 * a prefix ("painting" → "paint*", "Kinoabende" → "kinoabend*"), all OR-ed so
 * more shared words rank higher. User text can never break the expression:
 * every token is quoted.
 */
import { foldWord } from "./time-words.ts";
import { FILLER_WORDS } from "../../foundation/util/meaningful-words.ts";

/** Words that match half of any log; dropped unless nothing else is left. Folded spelling. */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  // German
  "der",
  "die",
  "das",
  "den",
  "dem",
  "des",
  "ein",
  "eine",
  "einen",
  "einem",
  "einer",
  "und",
  "oder",
  "mit",
  "von",
  "zu",
  "zum",
  "zur",
  "im",
  "in",
  "am",
  "an",
  "auf",
  "aus",
  "bei",
  "fur",
  "uber",
  "um",
  "vom",
  "ich",
  "du",
  "er",
  "sie",
  "es",
  "wir",
  "ihr",
  "mir",
  "dir",
  "mich",
  "dich",
  "uns",
  "was",
  "wie",
  "wo",
  "wer",
  "ist",
  "war",
  "hat",
  "wann",
  "warum",
  "welche",
  "welcher",
  "welches",
  "hast",
  "hatte",
  "hattest",
  "bist",
  "sind",
  "waren",
  "wurde",
  "nicht",
  "auch",
  "noch",
  "schon",
  "mal",
  "denn",
  "dann",
  "so",
  "ja",
  "nein",
  "als",
  "dass",
  "sein",
  "seine",
  "ihre",
  // English
  "the",
  "a",
  "an",
  "and",
  "or",
  "of",
  "to",
  "on",
  "at",
  "for",
  "with",
  "is",
  "was",
  "i",
  "you",
  "we",
  "it",
  "my",
  "me",
  "he",
  "she",
  "his",
  "her",
  "how",
  "who",
  "did",
  "do",
  "does",
  "what",
  "when",
  "where",
  "why",
  "which",
  "whom",
  "are",
  "were",
  "be",
  "been",
  "being",
  "has",
  "have",
  "had",
  "that",
  "this",
  "these",
  "those",
  "they",
  "them",
  "their",
  "its",
  "our",
  "your",
  "from",
  "by",
  "in",
  "into",
  "about",
  "as",
  "any",
  "some",
  "would",
  "could",
  "should",
  "can",
  "will",
  "might",
  "may",
  "there",
  "than",
  "then",
  "so",
  "if",
  "not",
  "no",
  "yes",
  "also",
  "too",
  "very",
  "likely",
  "kind",
  "type",
  "s",
  "t",
  "much",
  "many",
]);

/** Stems shorter than this stay whole words: "ran*" would match "random". */
const MIN_STEM = 4;

/** Suffixes stripped, longest first (English and German inflection and derivation). */
const SUFFIXES = [
  "ations",
  "ation",
  "ments",
  "ment",
  "ingen",
  "ungen",
  "ung",
  "ings",
  "ing",
  "ies",
  "ied",
  "ed",
  "es",
  "er",
  "ern",
  "en",
  "em",
  "ly",
  "s",
  "n",
  "e",
];

/** The light stem of one folded word: the longest suffix off that leaves at least MIN_STEM letters. */
export function lightStem(folded: string): string {
  if (/\d/.test(folded)) return folded;
  for (const s of SUFFIXES) {
    if (folded.endsWith(s) && folded.length - s.length >= MIN_STEM) return folded.slice(0, -s.length);
  }
  return folded;
}

/** Words of a text as unicode61 would cut them. */
export function tokens(text: string): string[] {
  return text.normalize("NFC").match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
}

/** The meaningful search words of a text (folded, stemmed, distinct); stop words only when nothing else is left. */
export function searchWords(terms: string[]): string[] {
  const all = terms.flatMap(tokens).map(foldWord);
  const meaningful = all.filter((f) => f.length >= 2 && !STOP_WORDS.has(f) && !FILLER_WORDS.has(f));
  return [...new Set((meaningful.length ? meaningful : all).map(lightStem))];
}

/**
 * The MATCH expression for these words, or undefined when no word is left.
 * Words of 3+ letters are prefix-matched, so "Kino" finds "Kinoabend".
 */
export function ftsQuery(terms: string[]): string | undefined {
  const words = searchWords(terms);
  if (!words.length) return undefined;
  return words.map((w) => `"${w.replaceAll('"', '""')}"${w.length >= 3 ? "*" : ""}`).join(" OR ");
}
