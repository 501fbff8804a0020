/**
 * `npm run bench`, the rows of encryption at rest: the same install measured
 * unencrypted and encrypted (LILO_DATA_KEY) in one run — the memory work of a
 * turn (p95), `lilo backup` of the database, and start-up (opening the
 * database and loading the vector index from its snapshot, sealed with a key
 * derived from the data key when encrypted). BENCH_AT_REST_NOTES
 * sets the size (default 100,000 notes).
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { ms, pct, sentence, time, word } from "./bench-kit.ts";
import { createLilo, loadConfig, type ChatModel, type Embedder } from "../../core/index.ts";
import { EmbeddedIndex } from "../../core/foundation/providers/embedded-index/embedded-index.ts";
import { openDatabase } from "../../core/foundation/store/db.ts";
import { dataKeyOf } from "../../core/foundation/store/data-key.ts";
import { memoryTable } from "../helpers/memory-table.ts";

const USER = "bench";
const QUERIES = 50;
const KEY = "b7".repeat(32);
const unusedModel: ChatModel = { provider: "bench", model: "none", complete: () => Promise.reject(new Error("the benchmark never calls a model")) };

interface Measured {
  turn: number[];
  backupMs: number;
  startMs: number;
  bytes: number;
}

async function measure(n: number, embedder: Embedder, encrypted: boolean): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), "lilo-bench-atrest-"));
  const env = { LILO_DATA_DIR: dir, ...(encrypted ? { LILO_DATA_KEY: KEY } : {}) };
  try {
    const dim = await embedder.dimension();
    // Filled directly (rows and vectors), as memory.bench.ts does: the rows below time only reading them.
    const db = openDatabase(join(dir, "lilo.db"), encrypted ? loadKey() : undefined);
    const index = new EmbeddedIndex(db, {
      graphMinSize: Number.POSITIVE_INFINITY,
      saveEvery: Number.POSITIVE_INFINITY,
      ...(encrypted ? { dataKey: loadKey() } : {}),
    });
    await index.init(dim, embedder.id);
    const notes = memoryTable(db, "notes");
    for (let start = 0; start < n; start += 2000) {
      const texts = Array.from({ length: Math.min(2000, n - start) }, (_, j) => sentence(start + j));
      const vectors = await embedder.embed(texts);
      const ids = db.transaction(() => texts.map((t, j) => notes.insert(USER, t, new Date(Date.UTC(2026, 0, 1) + start + j).toISOString())))();
      await index.upsert(ids.map((id, j) => ({ store: "notes" as const, rowId: id, userId: USER, vector: vectors[j]! })));
    }
    await index.close();
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();

    const t0 = performance.now();
    const lilo = createLilo(loadConfig(env), { embedder, chatModel: unusedModel });
    await lilo.warmUp();
    const startMs = performance.now() - t0;
    await lilo.memory.indexKeywords(USER);
    const texts = Array.from({ length: QUERIES }, (_, i) => `Was weißt du über ${word(i * 7 + 1)} und ${word(i * 13 + 2)}? #${i}`);
    const turn = await time(QUERIES, (i) => lilo.preview({ userId: USER, text: texts[i]! }));
    const t1 = performance.now();
    const file = await lilo.backup.create();
    const backupMs = performance.now() - t1;
    const bytes = statSync(file).size;
    await lilo.close();
    return { turn, backupMs, startMs, bytes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const loadKey = () => dataKeyOf(KEY);

/** Prints the rows: each measure unencrypted, encrypted, and what encryption costs. */
export async function runAtRestBench(embedder: Embedder): Promise<void> {
  const n = Number(process.env.BENCH_AT_REST_NOTES ?? 100_000);
  const plain = await measure(n, embedder, false);
  const sealed = await measure(n, embedder, true);
  const cost = (a: number, b: number) => `${b >= a ? "+" : ""}${(((b - a) / a) * 100).toFixed(0)} %`;
  console.log(`encryption at rest, ${n.toLocaleString("en")} notes (database ${(plain.bytes / 2 ** 20).toFixed(0)} MB)   unencrypted   encrypted   cost`);
  const row = (label: string, a: number, b: number) =>
    console.log(`  ${label.padEnd(40)} ${a.toFixed(1).padStart(10)} ms ${b.toFixed(1).padStart(10)} ms   ${cost(a, b)}`);
  row("turn memory work p95", pct(plain.turn, 95), pct(sealed.turn, 95));
  console.log(`  ${"turn memory work p50 / p95".padEnd(40)} ${ms(plain.turn)} | ${ms(sealed.turn)}`);
  row("lilo backup", plain.backupMs, sealed.backupMs);
  row("start-up (open, index ready)", plain.startMs, sealed.startMs);
}
