/**
 * Word comparison for topics and concerns (docs/spec.md §9): what counts are the
 * meaningful words of a sentence — not short words, not filler. Whole words
 * only; the seed compared substrings, so "Kino" matched "Kinoabend".
 */

/** Words shorter than this carry little meaning ("und", "ich", "the"). */
const MIN_WORD_LENGTH = 4;

/** German and English filler words of MIN_WORD_LENGTH letters or more (shorter ones drop anyway). */
export const FILLER_WORDS: ReadonlySet<string> = new Set([
  // German
  "aber",
  "also",
  "auch",
  "bitte",
  "dann",
  "dass",
  "dein",
  "deine",
  "deinen",
  "deiner",
  "denn",
  "dich",
  "diese",
  "dieser",
  "dieses",
  "doch",
  "eben",
  "eigentlich",
  "eine",
  "einem",
  "einen",
  "einer",
  "einfach",
  "etwas",
  "euer",
  "eure",
  "frage",
  "fragen",
  "ganz",
  "gerade",
  "gern",
  "gerne",
  "habe",
  "haben",
  "hast",
  "immer",
  "irgendwie",
  "jetzt",
  "kann",
  "könnte",
  "mich",
  "mein",
  "meine",
  "mehr",
  "möchte",
  "nach",
  "nicht",
  "noch",
  "oder",
  "schon",
  "sehr",
  "sein",
  "sich",
  "sind",
  "über",
  "unser",
  "viel",
  "vielleicht",
  "weil",
  "wenn",
  "werden",
  "wieder",
  "wird",
  "wirklich",
  "wohl",
  "würde",
  "wurde",
  "zwar",
  // English
  "about",
  "actually",
  "again",
  "also",
  "always",
  "been",
  "could",
  "even",
  "from",
  "have",
  "into",
  "just",
  "like",
  "maybe",
  "more",
  "perhaps",
  "really",
  "should",
  "some",
  "something",
  "still",
  "than",
  "that",
  "their",
  "them",
  "then",
  "there",
  "these",
  "they",
  "this",
  "those",
  "very",
  "want",
  "were",
  "what",
  "when",
  "where",
  "whether",
  "which",
  "will",
  "with",
  "wonder",
  "would",
  "your",
]);

/** The meaningful words of a text: lower case, whole words, no short or filler words. */
export function meaningfulWords(text: string): Set<string> {
  const words = text
    .toLowerCase()
    .normalize("NFC")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= MIN_WORD_LENGTH && !FILLER_WORDS.has(w));
  return new Set(words);
}

/**
 * Share (0..1) of the meaningful words of `candidate` that also occur in
 * `existing`; 0 when the candidate has none.
 */
export function sharedWordShare(candidate: string, existing: string): number {
  const a = meaningfulWords(candidate);
  if (a.size === 0) return 0;
  const b = meaningfulWords(existing);
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / a.size;
}
