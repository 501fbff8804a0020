/**
 * `npm run bench`: the memory work of one chat turn (embed, search, assemble
 * the cheat sheet; everything but the model call) and a bare vector search
 * on the embedded sqlite-vec index, beside a brute-force cosine scan in JS
 * over the same vectors in the same run. Ratios are the figures that count:
 * absolute times on a shared machine are noisy.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createLilo, loadConfig, type Embedder, type ChatModel } from "../../core/index.ts";
import { HashEmbedder } from "../../core/providers/hash-embedder.ts";
import { TransformersEmbedder } from "../../core/providers/transformers-embedder.ts";
import { SqliteVecIndex } from "../../core/providers/sqlite-vec-index.ts";
import { openDatabase } from "../../core/store/db.ts";
import { TextRows } from "../../core/store/text-rows.ts";

const SIZES = (process.env.BENCH_SIZES ?? "1000,10000,100000").split(",").map(Number);
const USER = "bench";
const WORDS = "kino film musik arbeit projekt reise berlin urlaub familie kaffee garten buch serie lilo server code rezept wandern fahrrad konzert".split(" ");

const unusedModel: ChatModel = {
  provider: "bench",
  model: "none",
  complete: () => Promise.reject(new Error("the benchmark never calls a model")),
};

function sentence(i: number): string {
  const pick = (k: number) => WORDS[(i * 7 + k * 13 + ((i >> k) & 7)) % WORDS.length];
  return `Notiz ${i}: Christian spricht über ${pick(1)}, ${pick(2)} und ${pick(3)} (${i % 97}).`;
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

async function time(runs: number, fn: (i: number) => Promise<unknown> | unknown): Promise<number[]> {
  for (let i = 0; i < Math.min(5, runs); i++) await fn(i); // warm-up
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn(i);
    out.push(performance.now() - t);
  }
  return out;
}

async function pickEmbedder(): Promise<{ embedder: Embedder; note: string }> {
  const config = loadConfig({ ...process.env, LILO_EMBEDDING_OFFLINE: "true" } as Record<string, string>);
  const real = new TransformersEmbedder({ model: config.embedding.model, localDir: config.embedding.localDir, offline: true });
  try {
    await real.dimension();
    return { embedder: real, note: `${config.embedding.model} (transformers.js, local)` };
  } catch {
    return {
      embedder: new HashEmbedder(384),
      note: `SYNTHETIC hash embedder, 384 dims: the real model ${config.embedding.model} is not in ${config.embedding.localDir} on this machine (it downloads on a user's first start). Embedding time below is therefore not MiniLM's.`,
    };
  }
}

async function benchSize(n: number, embedder: Embedder): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "lilo-bench-"));
  try {
    const db = openDatabase(join(dir, "bench.db"));
    const index = new SqliteVecIndex(db);
    await index.init(await embedder.dimension(), embedder.id);
    const rows = new TextRows(db, "notes");
    const all: Float32Array[] = [];
    const batch = 1000;
    const t0 = performance.now();
    for (let start = 0; start < n; start += batch) {
      const texts = Array.from({ length: Math.min(batch, n - start) }, (_, j) => sentence(start + j));
      const vectors = await embedder.embed(texts);
      const ids = db.transaction(() => texts.map((t) => rows.insert(USER, t, new Date(Date.UTC(2026, 0, 1) + start).toISOString())))();
      await index.upsert(ids.map((id, j) => ({ store: "notes" as const, rowId: id, userId: USER, vector: vectors[j]! })));
      all.push(...vectors);
    }
    const fillMs = performance.now() - t0;
    const lilo = createLilo(loadConfig({ LILO_DATA_DIR: dir }), { db, embedder, vectorIndex: index, chatModel: unusedModel });
    const queries = Array.from({ length: 50 }, (_, i) => `Was hältst du von ${WORDS[i % WORDS.length]} und ${WORDS[(i * 3) % WORDS.length]}?`);
    const qv = await embedder.embed(queries);
    const runs = n >= 100_000 ? 60 : 200;
    const turn = await time(runs, (i) => lilo.preview({ userId: USER, text: `${queries[i % queries.length]} #${i}` }));
    const search = await time(runs, (i) => index.search({ vector: qv[i % qv.length]!, store: "notes", userId: USER, k: 5, minScore: 0.3 }));
    const brute = await time(runs, (i) => bruteForceTop5(all, qv[i % qv.length]!));
    await lilo.close();
    db.close();
    const f = (xs: number[]) => `p50 ${percentile(xs, 50).toFixed(2)} ms  p95 ${percentile(xs, 95).toFixed(2)} ms`;
    return [
      `${n.toLocaleString("en")} notes (filled in ${(fillMs / 1000).toFixed(1)} s)`,
      `  memory work of a turn   ${f(turn)}`,
      `  vector search (top 5)   ${f(search)}`,
      `  brute-force JS scan     ${f(brute)}`,
      `  search / brute force    p50 ×${(percentile(search, 50) / percentile(brute, 50)).toFixed(2)}  p95 ×${(percentile(search, 95) / percentile(brute, 95)).toFixed(2)}  (below 1 = the index is faster)`,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function bruteForceTop5(all: Float32Array[], q: Float32Array): number[] {
  const top: { i: number; s: number }[] = [];
  for (let i = 0; i < all.length; i++) {
    const v = all[i]!;
    let s = 0;
    for (let d = 0; d < v.length; d++) s += v[d]! * q[d]!;
    if (s < 0.3) continue;
    if (top.length < 5 || s > top[top.length - 1]!.s) {
      top.push({ i, s });
      top.sort((a, b) => b.s - a.s);
      if (top.length > 5) top.pop();
    }
  }
  return top.map((t) => t.i);
}

const { embedder, note } = await pickEmbedder();
const cpu = cpus();
console.log(`Lilo memory benchmark — ${new Date().toISOString()}`);
console.log(`machine: ${cpu[0]?.model ?? "unknown CPU"}, ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.platform}`);
console.log(`index: sqlite-vec (embedded); embedder: ${note}`);
for (const n of SIZES) for (const line of await benchSize(n, embedder)) console.log(line);
