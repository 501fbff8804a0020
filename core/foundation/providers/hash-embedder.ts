import type { Embedder } from "../ports/embedder.ts";

/** Weight of a whole word against one of its character trigrams: exact word matches count more. */
const WORD_WEIGHT = 1;
const TRIGRAM_WEIGHT = 0.5;

/**
 * Feature hashing of lower-cased words and their character trigrams into
 * `dim` buckets, L2-normalised. Deterministic, offline, no dependencies and
 * instant, which is why the benchmark uses it and why it is an explicit
 * choice for machines that cannot fetch a model.
 *
 * It is NOT a semantic model: texts are similar only when they share words
 * or word fragments ("Kino" ~ "Kinoabend"), never when they mean the same
 * in other words ("film" vs "movie"). Similarity thresholds tuned for MiniLM
 * do not carry over.
 */
export class HashEmbedder implements Embedder {
  readonly id: string;
  private readonly dim: number;

  /** `dim` defaults to 384, the size of MiniLM, so indexes are interchangeable in size. */
  constructor(dim = 384) {
    if (!Number.isInteger(dim) || dim < 2) throw new RangeError(`HashEmbedder dimension must be an integer >= 2, got ${dim}`);
    this.dim = dim;
    this.id = `hash-${dim}`;
  }

  /** The configured bucket count; no model to read. */
  async dimension(): Promise<number> {
    return this.dim;
  }

  /** One unit vector per text, in order. */
  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.embedOne(t));
  }

  private embedOne(text: string): Float32Array {
    const v = new Float32Array(this.dim);
    const words =
      text
        .toLowerCase()
        .normalize("NFC")
        .match(/[\p{L}\p{N}]+/gu) ?? [];
    for (const word of words) {
      this.add(v, `w:${word}`, WORD_WEIGHT);
      // Boundary markers make "kino" at a word start differ from one inside a word.
      const chars = [...`<${word}>`];
      for (let i = 0; i + 3 <= chars.length; i++) this.add(v, `t:${chars.slice(i, i + 3).join("")}`, TRIGRAM_WEIGHT);
    }
    // A text without words still needs a unit vector; give all of them the same one.
    if (words.length === 0) this.add(v, "empty", 1);
    let norm = 0;
    for (const x of v) norm += x * x;
    norm = Math.sqrt(norm);
    // Opposite-signed collisions can cancel everything out; fall back to the empty vector.
    if (norm === 0) return this.embedOne("");
    for (let i = 0; i < v.length; i++) v[i]! /= norm;
    return v;
  }

  /** Signed hashing: a second hash bit picks ±, so bucket collisions cancel out on average instead of piling up. */
  private add(v: Float32Array, feature: string, weight: number): void {
    const h = fnv1a(feature);
    const bucket = h % this.dim;
    v[bucket]! += (h & 0x80000000 ? -1 : 1) * weight;
  }
}

/** 32-bit FNV-1a over UTF-16 code units: fast, stable across runs and platforms. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
