import type { Answer } from "../questions/questions.ts";

/**
 * Typed yes/no answers to an open question (SPEC §7), with the seed's lists
 * and its known flaws fixed:
 *
 * - Whole words only, never substrings: "Jahr" is not "ja", "Kino" not "no",
 *   "Token" not "ok".
 * - Only the first few words count (default four): an answer comes first.
 * - Both lists hit ("Ok, nein", "ja nee", "ja, aber lass das"): the seed let
 *   the first word win, so "Ok, nein" stored a rule. We read a mixed answer as
 *   NO — a rule must never arise without a clear yes, and a dropped rule costs
 *   nothing (the user can correct Lilo again). No second question is asked.
 * - "bitte" / "please" are weak: they count as yes only when every word read
 *   is a yes word ("bitte", "ja bitte", "bitte merken"), so "Bitte erkläre
 *   mir erst …" is not a yes.
 * - A yes word with a negation among the words read or in the rest of the
 *   first sentence ("Nicht merken", "nicht so gern", "don't save", "Merk dir
 *   das lieber nicht" — German puts it last) is a no, like any mixed answer;
 *   a negation alone is no answer at all ("Ich weiß nicht").
 * - A typed 👍 / 👎 (any skin tone) is a yes / no, as the same emoji is as a
 *   reaction on Matrix; other emojis and punctuation are no words at all.
 */

/** Strong yes words: any one of them is a yes. The seed's list plus a few English ones, inflections and 👍. */
export const YES_WORDS: ReadonlySet<string> = new Set([
  "👍", "ja", "jo", "jep", "jup", "jawohl", "yes", "yeah", "yep", "yup", "sure", "ok", "okay", "okey", "klar", "genau",
  "gerne", "gern", "merk", "merke", "merken", "speicher", "speichere", "speichern", "passt", "save",
]);

/** Weak yes words: yes only when the rest of what was read is yes words too. */
export const WEAK_YES_WORDS: ReadonlySet<string> = new Set(["bitte", "please"]);

/** No words: the seed's list plus "nah", "forget" and 👎. "nicht" is deliberately absent (in every second sentence). */
export const NO_WORDS: ReadonlySet<string> = new Set(["👎", "nein", "nee", "nö", "noe", "no", "nope", "nah", "vergiss", "lass", "forget"]);

/** Negations: they turn a yes word among the words read into a no. Alone they answer nothing. */
export const NEGATIONS: ReadonlySet<string> = new Set(["nicht", "kein", "keine", "nie", "niemals", "not", "never", "don", "dont"]);

/** The words of a message, lower-cased: runs of letters and digits (punctuation never glues words), and 👍 / 👎 as words of their own. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+|\u{1F44D}|\u{1F44E}/gu) ?? [];
}

/**
 * Reads a typed answer: "yes", "no", or undefined when the message answers
 * something else (the caller then discards the question and handles the
 * message normally). Both lists hit, or a yes word with a negation → "no"
 * (see the module comment).
 */
export function readYesNo(text: string, firstWords = 4): Answer | undefined {
  const read = words(text).slice(0, firstWords);
  if (read.length === 0) return undefined;
  const no = read.some((w) => NO_WORDS.has(w));
  const strongYes = read.some((w) => YES_WORDS.has(w));
  const weakYes = read.some((w) => WEAK_YES_WORDS.has(w)) && read.every((w) => YES_WORDS.has(w) || WEAK_YES_WORDS.has(w));
  const firstSentence = words(text.split(/[.!?\n]/u)[0] ?? "");
  const negated = strongYes && [...read, ...firstSentence].some((w) => NEGATIONS.has(w));
  // A mixed or negated answer is a no: a rule is stored only on an unambiguous yes.
  if (no || negated) return "no";
  if (strongYes || weakYes) return "yes";
  return undefined;
}
