/** Shared pieces of `npm run bench`: timing, percentiles, the made-up vocabulary and a precomputing embedder. */
import { performance } from "node:perf_hooks";
import type { Embedder } from "../../core/index.ts";

// A vocabulary of made-up words, so hash-embedded notes spread out like real ones instead of clustering on a few
// words; each ends in "x" so no word is a prefix of another (the keyword side prefix-matches, as for real words).
const SYL = "ka lo mi ren tu sa fe bor qui dan el ni ost pra vu gel hem ri zo tak".split(" ");
export const VOCAB = Array.from({ length: 3000 }, (_, i) => `${SYL[i % 20]}${SYL[Math.floor(i / 20) % 20]}${SYL[Math.floor(i / 400) % 20]}x`);
export const word = (x: number) => VOCAB[Math.abs(x) % VOCAB.length]!;
export const sentence = (i: number) =>
  `Notiz ${i}: ${word(i * 7919)} ${word(i * 104729 + 3)} und ${word(i * 1299709 + 11)}, ${word((i >> 3) * 31 + 5)} ${word(i % 97)}.`;

/** Serves embeddings computed before the timed loop, so turn timings exclude embedding (reported on its own). */
export class PrecomputedEmbedder implements Embedder {
  readonly id: string;
  private readonly known = new Map<string, Float32Array>();
  constructor(private readonly inner: Embedder) {
    this.id = inner.id;
  }
  dimension(): Promise<number> {
    return this.inner.dimension();
  }
  async prepare(texts: string[]): Promise<void> {
    const vs = await this.inner.embed(texts);
    texts.forEach((t, i) => this.known.set(t, vs[i]!));
  }
  embed(texts: string[]): Promise<Float32Array[]> {
    const missing = texts.filter((t) => !this.known.has(t));
    if (missing.length) return this.inner.embed(texts);
    return Promise.resolve(texts.map((t) => this.known.get(t)!));
  }
}

export const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
export const ms = (xs: number[]) => `${pct(xs, 50).toFixed(2).padStart(8)} ${pct(xs, 95).toFixed(2).padStart(8)}`;
export const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

/** Runs `fn` `runs` times after a short warm-up; returns each run's milliseconds. */
export async function time(runs: number, fn: (i: number) => Promise<unknown> | unknown): Promise<number[]> {
  for (let i = 0; i < Math.min(5, runs); i++) await fn(i); // warm-up
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn(i);
    out.push(performance.now() - t);
  }
  return out;
}
