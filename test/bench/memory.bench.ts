/**
 * `npm run bench` (add `-- --1m` for a million notes): for each size, the
 * embedded index (int8 RAM copy + float rescoring from SQLite; exact scan and
 * the HNSW graph path) beside a brute-force float scan in JS in the same run —
 * bare search p50/p95 and recall@10 against exact, the memory work of one turn (everything but the model call; embedding reported on its
 * own), index build / load time and resident memory. Ratios are the figures
 * that count: absolute times on a shared machine are noisy.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { PrecomputedEmbedder, mb, ms, pct, sentence, time, word } from "./bench-kit.ts";
import { runScaleBench } from "./scale.bench.ts";
import { runHistoryBench } from "./history.bench.ts";
import { runAtRestBench } from "./at-rest.bench.ts";
import { runRemindersBench } from "./reminders.bench.ts";
import { createLilo, loadConfig, type Embedder, type ChatModel } from "../../core/index.ts";
import { HashEmbedder } from "../../core/foundation/providers/hash-embedder.ts";
import { TransformersEmbedder } from "../../core/foundation/providers/transformers-embedder.ts";
import { EmbeddedIndex } from "../../core/foundation/providers/embedded-index/embedded-index.ts";
import type { VectorIndex } from "../../core/foundation/ports/vector-index.ts";
import { openDatabase, type Db } from "../../core/foundation/store/db.ts";
import { memoryTable } from "../helpers/memory-table.ts";

const MILLION = process.argv.includes("--1m") || process.env.BENCH_1M === "1";
const QUICK = process.env.BENCH_QUICK === "1";
const SIZES = (process.env.BENCH_SIZES ?? (QUICK ? "10000" : `10000,100000${MILLION ? ",1000000" : ""}`)).split(",").map(Number);
/** The HNSW graph path is built and measured up to this size (its build is the slow part). */
const GRAPH_MAX = Number(process.env.BENCH_GRAPH_MAX ?? 1_000_000);
const USER = "bench";
const K = 10;
const QUERIES = 100;

const unusedModel: ChatModel = { provider: "bench", model: "none", complete: () => Promise.reject(new Error("the benchmark never calls a model")) };

async function pickEmbedder(): Promise<{ embedder: Embedder; note: string }> {
  const config = loadConfig({ ...process.env, LILO_EMBEDDING_OFFLINE: "true" } as Record<string, string>);
  const real = new TransformersEmbedder({ model: config.embedding.model, localDir: config.embedding.localDir, offline: true });
  try {
    await real.dimension();
    return { embedder: real, note: `${config.embedding.model} (transformers.js, local)` };
  } catch {
    return {
      embedder: new HashEmbedder(384),
      note: `SYNTHETIC hash embedder, 384 dims (${config.embedding.model} is not in ${config.embedding.localDir}); embedding time is not MiniLM's`,
    };
  }
}

/** Exact top-k by cosine over the flat float copy (vectors are unit length): the ground truth and the JS baseline. */
function bruteForce(flat: Float32Array, dim: number, q: Float32Array, k: number): { id: number; s: number }[] {
  const top: { id: number; s: number }[] = [];
  const n = flat.length / dim;
  for (let i = 0; i < n; i++) {
    let s = 0;
    const o = i * dim;
    for (let d = 0; d < dim; d++) s += flat[o + d]! * q[d]!;
    if (top.length < k || s > top[top.length - 1]!.s) {
      top.push({ id: i + 1, s });
      top.sort((a, b) => b.s - a.s);
      if (top.length > k) top.pop();
    }
  }
  return top;
}

/** Share of returned hits that belong to the exact top k (ties at the k-th score count as right). */
function recallAt(hits: { rowId: number; score: number }[], exact: { id: number; s: number }[]): number {
  const ids = new Set(exact.map((e) => e.id));
  const kth = exact[exact.length - 1]?.s ?? -1;
  return hits.filter((h) => ids.has(h.rowId) || h.score >= kth - 1e-6).length / Math.max(1, exact.length);
}

async function measureSearch(index: VectorIndex, qv: Float32Array[], exact: { id: number; s: number }[][]) {
  const times = await time(qv.length, (i) => index.search({ vector: qv[i]!, store: "notes", userId: USER, k: K }));
  let recall = 0;
  for (let i = 0; i < qv.length; i++) recall += recallAt(await index.search({ vector: qv[i]!, store: "notes", userId: USER, k: K }), exact[i]!);
  return { times, recall: recall / qv.length };
}

async function fill(db: Db, embedder: Embedder, n: number, dim: number): Promise<{ flat: Float32Array; fillMs: number }> {
  const index = new EmbeddedIndex(db, { graphMinSize: Number.POSITIVE_INFINITY, saveEvery: Number.POSITIVE_INFINITY });
  await index.init(dim, embedder.id);
  const notes = memoryTable(db, "notes");
  const flat = new Float32Array(n * dim);
  const t0 = performance.now();
  for (let start = 0; start < n; start += 2000) {
    const texts = Array.from({ length: Math.min(2000, n - start) }, (_, j) => sentence(start + j));
    const vectors = await embedder.embed(texts);
    const ids = db.transaction(() => texts.map((t, j) => notes.insert(USER, t, new Date(Date.UTC(2026, 0, 1) + start + j).toISOString())))();
    ids.forEach((id, j) => flat.set(vectors[j]!, (id - 1) * dim));
    await index.upsert(ids.map((id, j) => ({ store: "notes" as const, rowId: id, userId: USER, vector: vectors[j]! })));
  }
  // A few hundred important memories and thoughts: the turn searches those stores too.
  const extra = Math.min(500, Math.ceil(n / 100));
  for (const store of ["important", "thoughts"] as const) {
    const texts = Array.from({ length: extra }, (_, j) => `${store} ${sentence(n + j)}`);
    const vectors = await embedder.embed(texts);
    const r = memoryTable(db, store);
    const ids = db.transaction(() => texts.map((t) => r.insert(USER, t, new Date().toISOString())))();
    await index.upsert(ids.map((id, j) => ({ store, rowId: id, userId: USER, vector: vectors[j]! })));
  }
  await index.close(); // writes the snapshot
  return { flat, fillMs: performance.now() - t0 };
}

async function benchSize(n: number, base: Embedder): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "lilo-bench-"));
  // Lines are printed as they are measured: a long 1M run shows its first numbers early.
  const out = { push: (line: string) => console.log(line) };
  const row = (label: string, xs: number[], extra = "") => out.push(`  ${label.padEnd(34)} ${ms(xs)}   ${extra}`);
  try {
    const file = join(dir, "lilo.db");
    const dim = await base.dimension();
    const db = openDatabase(file);
    const { flat, fillMs } = await fill(db, base, n, dim);
    db.pragma("wal_checkpoint(TRUNCATE)"); // as a running bot's automatic checkpoints would have done
    const queryTexts = Array.from({ length: QUERIES }, (_, i) => `Was weißt du über ${word(i * 7 + 1)} und ${word(i * 13 + 2)}?`);
    const embedTimes = await time(QUERIES, (i) => base.embed([`${queryTexts[i]!} ${i}`]));
    const qv = await base.embed(queryTexts);
    const bruteTimes: number[] = [];
    const exact = qv.map((q) => {
      const t = performance.now();
      const r = bruteForce(flat, dim, q, K);
      bruteTimes.push(performance.now() - t);
      return r;
    });
    out.push(`${n.toLocaleString("en")} notes (${dim} dims; SQLite filled in ${(fillMs / 1000).toFixed(1)} s)          p50 ms   p95 ms   recall@10 / notes`);
    row("brute-force JS float scan (exact)", bruteTimes, "1.000 (ground truth)");

    // Start-up: load the snapshot and catch up; then a rebuild from SQLite (no snapshot).
    const rss0 = process.memoryUsage().rss;
    let t = performance.now();
    const index = new EmbeddedIndex(db, { graphMinSize: Number.POSITIVE_INFINITY });
    await index.init(dim, base.id);
    const loadMs = performance.now() - t;
    const rssIndex = process.memoryUsage().rss - rss0;
    const db2 = openDatabase(file);
    t = performance.now();
    const rebuilt = new EmbeddedIndex(db2, { snapshotPath: null, graphMinSize: Number.POSITIVE_INFINITY });
    await rebuilt.init(dim, base.id);
    const rebuildMs = performance.now() - t;
    await rebuilt.close();

    const flatRes = await measureSearch(index, qv, exact);
    row(
      "embedded exact int8 + rescoring",
      flatRes.times,
      `${flatRes.recall.toFixed(3)}  ×${(pct(flatRes.times, 95) / pct(bruteTimes, 95)).toFixed(3)} of brute force (p95)`,
    );

    let graphLine: string | undefined;
    if (n <= GRAPH_MAX) {
      t = performance.now();
      const graph = new EmbeddedIndex(db2, { snapshotPath: null, graphMinSize: 1000, graphBuild: "inline" });
      await graph.init(dim, base.id);
      const graphMs = performance.now() - t;
      const g = await measureSearch(graph, qv, exact);
      row("embedded HNSW (int8) + rescoring", g.times, `${g.recall.toFixed(3)}  ×${(pct(g.times, 95) / pct(bruteTimes, 95)).toFixed(3)} of brute force (p95)`);
      graphLine = `  graph build ${(graphMs / 1000).toFixed(1)} s`;
      await graph.close();
    }
    db2.close();

    // The memory work of a turn: embedding (separately), then notes/important/thoughts hybrid search, chat recall, profile, sheet.
    const embedder = new PrecomputedEmbedder(base);
    const texts = queryTexts.map((q, i) => `${q} #${i}`);
    await embedder.prepare(texts);
    const lilo = createLilo(loadConfig({ LILO_DATA_DIR: dir }), { db, embedder, vectorIndex: index, chatModel: unusedModel });
    await lilo.memory.indexKeywords(USER); // the notes' keyword index in memory, as a running bot has it
    const turn = await time(QUERIES, (i) => lilo.preview({ userId: USER, text: texts[i]! }));
    const dedup = await time(QUERIES, (i) => index.search({ vector: qv[i]!, store: "notes", userId: USER, k: 1, minScore: 0.95 }));
    row("turn memory work (no embedding)", turn, "notes+important+thoughts hybrid, chat recall, profile, sheet");
    row("embedding one message", embedTimes, "");
    row("dedup check of memory.add (k = 1)", dedup, "");
    out.push(`  start-up: snapshot load + catch-up ${loadMs.toFixed(0)} ms, rebuild from SQLite ${rebuildMs.toFixed(0)} ms${graphLine ? `;${graphLine}` : ""}`);
    out.push(
      `  memory: RSS +${mb(rssIndex)} for the loaded index (int8 ${mb(n * dim)}), brute-force float copy ${mb(flat.byteLength)}, process RSS ${mb(process.memoryUsage().rss)}`,
    );
    await lilo.close();
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const { embedder, note } = await pickEmbedder();
const cpu = cpus();
console.log(`Lilo memory benchmark — ${new Date().toISOString()}`);
console.log(
  `machine: ${cpu[0]?.model ?? "unknown CPU"}, ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.platform}`,
);
console.log(`embedder: ${note}; ${QUERIES} queries, k = ${K}; search = index.search (top 10); shared machine: absolute numbers are noisy, compare ratios`);
if (!process.env.BENCH_ONLY) for (const n of SIZES) await benchSize(n, embedder);
if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === "scale") await runScaleBench(embedder, { quick: QUICK, million: MILLION });
if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === "history") await runHistoryBench(embedder);
if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === "at-rest") await runAtRestBench(embedder);
if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === "reminders") await runRemindersBench(embedder);
