import type { Answer } from "../questions/questions.ts";

/**
 * Typed yes/no answers to an open question (docs/spec.md §7), with the seed's lists
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
 * - A negation takes the yes back only where it negates it: in the same
 *   clause of the first sentence as a yes word ("Nicht merken", "nicht so
 *   gern", "don't save", "Merk dir das lieber nicht" — German puts it last)
 *   or after "aber"/"but". "Ja klar, warum nicht?" stays a yes; a negation
 *   alone is no answer at all ("Ich weiß nicht").
 * - Common phrases confirm ("Auf jeden Fall", "Mach das", "Klingt gut") or
 *   decline ("Lieber nicht", "Auf keinen Fall") without a yes or no word.
 * - A typed 👍 / 👎 (any skin tone) is a yes / no, as the same emoji is as a
 *   reaction on Matrix; other emojis and punctuation are no words at all.
 */

/** Strong yes words: any one of them is a yes. The seed's list plus a few English ones, inflections and 👍. */
const YES_WORDS: ReadonlySet<string> = new Set([
  "👍",
  "ja",
  "jo",
  "jep",
  "jup",
  "jawohl",
  "yes",
  "yeah",
  "yep",
  "yup",
  "sure",
  "ok",
  "okay",
  "okey",
  "klar",
  "genau",
  "gerne",
  "gern",
  "merk",
  "merke",
  "merken",
  "speicher",
  "speichere",
  "speichern",
  "passt",
  "save",
  "unbedingt",
  "natürlich",
  "sicher",
  "absolut",
  "definitiv",
  "selbstverständlich",
  "gladly",
  "definitely",
  "absolutely",
  "certainly",
  "alright",
]);

/** Weak yes words: yes only when the rest of what was read is yes words too. */
const WEAK_YES_WORDS: ReadonlySet<string> = new Set(["bitte", "please"]);

/** No words: the seed's list plus "nah", "forget" and 👎. "nicht" is deliberately absent (in every second sentence). */
const NO_WORDS: ReadonlySet<string> = new Set(["👎", "nein", "nee", "nö", "noe", "no", "nope", "nah", "vergiss", "lass", "forget"]);

/** Negations: they turn a yes word of the same clause into a no. Alone they answer nothing. */
const NEGATIONS: ReadonlySet<string> = new Set(["nicht", "kein", "keine", "nie", "niemals", "not", "never", "don", "dont"]);

/**
 * Common phrases that confirm without a yes word. Their words are read as
 * one yes, so the "nicht" of "warum nicht" negates nothing.
 */
const YES_PHRASES: readonly string[] = [
  "auf jeden fall",
  "mach das",
  "mach ruhig",
  "mach mal",
  "klingt gut",
  "hört sich gut an",
  "gute idee",
  "warum nicht",
  "na gut",
  "sehr gern",
  "sounds good",
  "go ahead",
  "do it",
  "of course",
  "why not",
  "good idea",
  "for sure",
];

/** Phrases that decline without a no word ("Lieber nicht", "Auf keinen Fall"). */
const NO_PHRASES: readonly string[] = [
  "auf keinen fall",
  "lieber nicht",
  "besser nicht",
  "eher nicht",
  "bitte nicht",
  "nicht nötig",
  "rather not",
  "better not",
  "please don",
  "no need",
  "not necessary",
];

/** Words that open a contrast: a negation after them takes back the yes ("Klar, aber nicht so"). */
const CONTRAST = new Set(["aber", "but", "jedoch"]);

/** The words of a message, lower-cased: runs of letters and digits (punctuation never glues words), and 👍 / 👎 as words of their own. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+|\u{1F44D}|\u{1F44E}/gu) ?? [];
}

/** The clauses of the first sentence, each as its words: a negation only negates within its clause. */
function clauses(text: string): string[][] {
  const first = text.split(/[.!?\n]/u)[0] ?? "";
  return first
    .split(/[,;:–—-]/u)
    .map(words)
    .filter((c) => c.length > 0);
}

/** Start indexes of a phrase among the words. */
function phraseAt(ws: string[], phrase: string): number[] {
  const p = phrase.split(" ");
  const out: number[] = [];
  for (let i = 0; i + p.length <= ws.length; i++) if (p.every((w, j) => ws[i + j] === w)) out.push(i);
  return out;
}

/** Marks the words covered by phrases starting within the first `firstWords` words; true when any did. */
function coverPhrases(ws: string[], phrases: readonly string[], firstWords: number, covered: Set<number>): boolean {
  let hit = false;
  for (const phrase of phrases) {
    for (const i of phraseAt(ws, phrase)) {
      if (i >= firstWords) continue;
      hit = true;
      phrase.split(" ").forEach((_, j) => covered.add(i + j));
    }
  }
  return hit;
}

/**
 * Reads a typed answer: "yes", "no", or undefined when the message answers
 * something else (the caller then discards the question and handles the
 * message normally). Both lists hit, a decline phrase, or a negation in the
 * clause of a yes word → "no" (see the module comment).
 */
export function readYesNo(text: string, firstWords = 4): Answer | undefined {
  const all = words(text);
  const read = all.slice(0, firstWords);
  if (read.length === 0) return undefined;
  const covered = new Set<number>();
  const noPhrase = coverPhrases(all, NO_PHRASES, firstWords, covered);
  const yesPhrase = coverPhrases(all, YES_PHRASES, firstWords, covered);
  const free = read.filter((_, i) => !covered.has(i));
  const no = noPhrase || free.some((w) => NO_WORDS.has(w));
  const strongYes = yesPhrase || free.some((w) => YES_WORDS.has(w));
  const weakYes = free.some((w) => WEAK_YES_WORDS.has(w)) && free.every((w) => YES_WORDS.has(w) || WEAK_YES_WORDS.has(w));
  // A mixed or negated answer is a no: a rule is stored only on an unambiguous yes.
  if (no || (strongYes && negatesYes(text))) return "no";
  if (strongYes || weakYes) return "yes";
  return undefined;
}

/**
 * Is the yes taken back? A negation counts where it negates: in a clause with
 * a yes word ("nicht merken", "nicht so gern", "Merk dir das lieber nicht",
 * "don't save") or after a contrast ("Klar, aber nicht so"). Elsewhere
 * ("Ja klar, warum nicht?", "Ja, nicht schlecht") it is no answer.
 */
function negatesYes(text: string): boolean {
  return clauses(text).some((c) => {
    const yesPhrase = new Set<number>();
    coverPhrases(c, YES_PHRASES, c.length, yesPhrase);
    const negation = c.some((w, i) => NEGATIONS.has(w) && !yesPhrase.has(i));
    if (!negation) return false;
    return CONTRAST.has(c[0]!) || c.some((w, i) => !yesPhrase.has(i) && (YES_WORDS.has(w) || WEAK_YES_WORDS.has(w)));
  });
}
