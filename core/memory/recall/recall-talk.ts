/**
 * Recognises messages that are themselves about remembering ("weißt du noch
 * …?", "do you remember …?"). The seed's feedback loop: a later
 * conversation *about* remembering uses the search words more densely than
 * the original and wins the search. Such hits rank below originals.
 */
import { foldWord } from "./time-words.ts";

/** Patterns on folded text (lower case, no diacritics, ß → ss), whole words. */
const PATTERNS: readonly RegExp[] = [
  // German
  /\bweis?st du (eigentlich |denn |vielleicht )?noch\b/,
  /\berinnerst du dich\b/,
  /\bkannst du dich (noch )?(daran |an \w+ )?erinnern\b/,
  /\berinnere dich\b/,
  /\bwas (hab|habe|hatte) ich (dir )?\b.*\b(gesagt|erzahlt|geschrieben|gemeint)\b/,
  /\bwie fand ich\b/,
  /\b(woruber|was) haben wir\b.*\b(gesprochen|geredet|besprochen)\b/,
  /\bhaben wir (nicht )?(mal |neulich |schon mal |schonmal |damals )?(uber|daruber)\b.*\b(gesprochen|geredet)\b/,
  // English
  /\bdo you (still |even )?(remember|recall)\b/,
  /\bcan you (still )?(remember|recall)\b/,
  /\bremember when\b/,
  /\bwhat did i (say|tell you|write|think)\b/,
  /\bwhat did we (talk|discuss|say)\b/,
  /\bhow did i (like|find)\b/,
];

/** Folds a whole text the way time words are folded, so patterns need no accents or ß. */
function foldText(text: string): string {
  return foldWord(text).replace(/\s+/g, " ");
}

/** Does this message ask to remember something said earlier? */
export function isRecallRequest(text: string): boolean {
  const folded = foldText(text);
  return PATTERNS.some((p) => p.test(folded));
}
