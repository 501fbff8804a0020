/**
 * Questions about a category are answered by its instances: "What martial
 * arts has John done?" — "I'm off to do some taekwondo!"; "What European
 * countries has Maria been to?" — "my trip to England". The evidence shares
 * no word with the question, and a small sentence embedder does not bring
 * the two close. A lexicon does know that taekwondo is a martial art and
 * England a European country: the question's category phrase ("martial
 * arts") gives its narrower words (kinds and named instances, a few levels
 * down), and the messages holding them form one more ranked list in the
 * fusion (bm25 over those words: rare ones count most, a message naming
 * several ranks first). English question forms only, as the lexicon behind
 * the port is English WordNet: a German question gets no such list and
 * ranks as before.
 */
import type { Lexicon } from "../../foundation/ports/lexicon.ts";
import type { RankedMessage } from "./search.ts";
import { STOP_WORDS, searchWords } from "./keyword-query.ts";
import { FILLER_WORDS } from "../../foundation/util/meaningful-words.ts";

/** The concept step's settings: the lexicon and how far and wide a category reaches. */
export interface ConceptStep {
  lexicon: Lexicon;
  /** Levels below the category (WordNet hangs instances 1–3 below a category: Rome → national capital → capital → city). */
  depth: number;
  /** At most this many narrower words per question (nearer levels first): bounds the keyword query. */
  maxWords: number;
}

/**
 * Three levels reach a city from "city" (Rome → national capital → capital)
 * and a violin from "instrument"; 2,000 words hold every city and country
 * WordNet names. The list's weight in the fusion is the `concepts` signal's
 * (signals.ts).
 */
export const DEFAULT_CONCEPT_STEP: Omit<ConceptStep, "lexicon"> = { depth: 3, maxWords: 2_000 };

/** Verbs that end a "what/which …" category phrase. */
const AUXILIARIES = "has|have|had|does|do|did|is|are|was|were|can|could|would|will|might|should";
/** "What martial arts has …", "Which kinds of books does …": the words before the verb. */
const CATEGORY_QUESTION = new RegExp(`^\\s*(?:what|which)\\s+(?:(kinds?|types?|sorts?)\\s+of\\s+)?(.+?)\\s+(?:${AUXILIARIES})\\b`, "iu");
/** A category phrase ends before a preposition ("events for veterans", "city in Ireland"). */
const PREPOSITION = /\s+(?:for|of|in|from|with|at|to|on|about|by)\b.*$/iu;
const AUXILIARY_WORD = new RegExp(`^(?:${AUXILIARIES})$`, "iu");
/** Longest category phrase tried (words). */
const MAX_PHRASE_WORDS = 3;

/**
 * The category phrases an English question asks about, each alternative
 * longest first ("European countries" before "countries"; "musical
 * artists/bands" gives both), or [] when the question has no such form.
 */
export function categoryPhrases(question: string): string[][] {
  const m = CATEGORY_QUESTION.exec(question);
  if (!m) return [];
  const words = m[2]!.replace(PREPOSITION, "").split(/\s+/).filter(Boolean);
  if (!words.length || words.length > MAX_PHRASE_WORDS || words.some((w) => AUXILIARY_WORD.test(w))) return [];
  // One thing asked for ("What dish did Nate make?") is named by the question's own words; a category lists several.
  if (!(m[1] || isPlural(words.at(-1)!))) return [];
  const modifiers = words.slice(0, -1).map((w) => w.replace(/[^\p{L}\p{N}-]+/gu, ""));
  return words
    .at(-1)!
    .split("/")
    .map((head) => head.replace(/[^\p{L}\p{N}-]+/gu, ""))
    .filter(Boolean)
    .map((head) => modifiers.map((_, i) => [...modifiers.slice(i), head].join(" ")).concat(head));
}

/** An English plural ("arts", "cities", "artists/bands"), not a word merely ending in s ("business", "class"). */
function isPlural(word: string): boolean {
  return /[^su']s(?:\/|$)/iu.test(word) || /(?:ses|xes|ches|shes)(?:\/|$)/iu.test(word);
}

/** The narrower words of the first phrase of each alternative the lexicon knows; undefined while it is not loaded. */
function narrowerWords(step: ConceptStep, alternatives: string[][]): string[] | undefined {
  const out = new Set<string>();
  for (const phrases of alternatives) {
    for (const phrase of phrases) {
      const words = step.lexicon.narrower(phrase, { depth: step.depth, max: step.maxWords });
      if (words === undefined) return undefined;
      if (!words.length) continue;
      for (const w of words) out.add(w);
      break;
    }
  }
  return [...out].slice(0, step.maxWords);
}

/** A word and its regular plural, as the chat log may write either ("violin", "violins"). */
function forms(word: string): string[] {
  if (/(?:s|x|z|ch|sh)$/u.test(word)) return [word, `${word}es`];
  if (/[^aeiou]y$/u.test(word)) return [word, `${word.slice(0, -1)}ies`];
  return [word, `${word}s`];
}

/**
 * The MATCH expression of a category question's narrower words (whole
 * words, no prefixes: "oran" must not find "orange"), without the
 * question's own words and common ones; undefined when there is none.
 */
export function conceptMatch(step: ConceptStep, question: string, terms: string[]): string | undefined {
  const alternatives = categoryPhrases(question);
  if (!alternatives.length) return undefined;
  const words = narrowerWords(step, alternatives);
  if (!words?.length) return undefined;
  const own = new Set(searchWords(terms));
  const kept = words.filter((w) => w.length >= 3 && !STOP_WORDS.has(w) && !FILLER_WORDS.has(w) && !own.has(searchWords([w])[0] ?? w));
  if (!kept.length) return undefined;
  return [...new Set(kept.flatMap(forms))].map((w) => `"${w}"`).join(" OR ");
}

/** Ranks messages by a concept MATCH expression under the request's filters (ChatSearch.rank). */
export type ConceptRanker = (match: string) => RankedMessage[];

/**
 * The concept list for the fusion: messages holding narrower words of the
 * question's category, best bm25 first; [] when the step is off, the
 * question names no category, or the lexicon is still loading (the search
 * never waits for it).
 */
export function conceptHits(step: ConceptStep | undefined, question: string, terms: string[], rank: ConceptRanker): RankedMessage[] {
  if (!step) return [];
  const match = conceptMatch(step, question, terms);
  return match ? rank(match) : [];
}
