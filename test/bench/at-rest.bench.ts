/**
 * `npm run bench`, the rows of encryption at rest: each install built twice,
 * unencrypted and encrypted (LILO_DATA_KEY), and the two measured in turn
 * (one of each, again and again), so a busy minute of the machine falls on
 * both alike:
 * - the memory work of a turn (`lilo preview` without embedding) at
 *   BENCH_AT_REST_NOTES notes (default 100,000);
 * - the same with BENCH_AT_REST_MESSAGES messages in the chat log (default
 *   100,000) beside 1,000 notes;
 * - start-up, BENCH_AT_REST_STARTS times each (default 21): opening the
 *   database until the vector index is ready (from its snapshot, sealed with
 *   a key derived from the data key when encrypted); for the chat-log
 *   install also until its saved graphs are loaded, just after the start;
 * - the whole start of the bot over each install (bot-start.ts: the real
 *   process, spawned until it logs that its health server listens, its last
 *   step), BENCH_AT_REST_BOT_STARTS times each (default 9);
 * - `lilo backup` of a database of BENCH_AT_REST_DB_MB (default 1,024 MB).
 */
import { copyFileSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { mb, pct, PrecomputedEmbedder, sentence, word } from "./bench-kit.ts";
import { createLilo, loadConfig, type ChatModel, type Embedder } from "../../core/index.ts";
import { EmbeddedIndex } from "../../core/foundation/providers/embedded-index/embedded-index.ts";
import { openDatabase, openLiloDatabase } from "../../core/foundation/store/db.ts";
import { dataKeyOf } from "../../core/foundation/store/data-key.ts";
import { convertFile } from "../../core/foundation/store/convert-files.ts";
import { memoryTable } from "../helpers/memory-table.ts";
import { botStarts } from "./bot-start.ts";

const USER = "bench";
const ROUNDS = 100;
const STARTS = Number(process.env.BENCH_AT_REST_STARTS ?? 21);
const BOT_STARTS = Number(process.env.BENCH_AT_REST_BOT_STARTS ?? 9);
const BACKUPS = 3;
const KEY = "b7".repeat(32);
const key = () => dataKeyOf(KEY);
const unusedModel: ChatModel = { provider: "bench", model: "none", complete: () => Promise.reject(new Error("the benchmark never calls a model")) };
const queries = Array.from({ length: ROUNDS }, (_, i) => `Was weißt du über ${word(i * 7 + 1)} und ${word(i * 13 + 2)}? #${i}`);

/** One install: its folder and the settings a Lilo over it starts with. */
interface Install {
  dir: string;
  env: Record<string, string>;
  encrypted: boolean;
}

function newInstall(encrypted: boolean): Install {
  const dir = mkdtempSync(join(tmpdir(), "lilo-bench-atrest-"));
  return { dir, encrypted, env: { LILO_DATA_DIR: dir, ...(encrypted ? { LILO_DATA_KEY: KEY } : {}) } };
}

/** `n` notes with their vectors, written directly (rows and index), as memory.bench.ts does: the rows time only reading them. */
async function fillNotes(inst: Install, embedder: Embedder, n: number): Promise<void> {
  const db = openDatabase(join(inst.dir, "lilo.db"), inst.encrypted ? key() : undefined);
  const index = new EmbeddedIndex(db, {
    graphMinSize: Number.POSITIVE_INFINITY,
    saveEvery: Number.POSITIVE_INFINITY,
    ...(inst.encrypted ? { dataKey: key() } : {}),
  });
  await index.init(await embedder.dimension(), embedder.id);
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
}

/** `n` chat messages in conversations of 20, a minute apart, two a day, imported and indexed as `lilo import` leaves them. */
async function fillChat(inst: Install, embedder: Embedder, n: number, text: (i: number) => string, index = true): Promise<void> {
  const lilo = createLilo(loadConfig(inst.env), { embedder, chatModel: unusedModel });
  const start = Date.UTC(2019, 0, 1);
  for (let from = 0; from < n; from += 20_000) {
    lilo.recall.importChat(
      Array.from({ length: Math.min(20_000, n - from) }, (_, j) => {
        const i = from + j;
        return {
          userId: USER,
          role: i % 2 ? ("assistant" as const) : ("user" as const),
          text: text(i),
          createdAt: new Date(start + Math.floor(i / 20) * 12 * 3_600_000 + (i % 20) * 60_000).toISOString(),
        };
      }),
    );
  }
  if (index) await lilo.recall.indexMessages(USER);
  await lilo.close();
}

/** A Lilo over an install with the index built here, so a benchmark can wait for its graphs. */
function openInstall(inst: Install, embedder: Embedder) {
  const config = loadConfig(inst.env);
  const db = openLiloDatabase(config);
  const index = new EmbeddedIndex(db, {
    ...(inst.encrypted ? { dataKey: key() } : {}),
    graphMinSize: config.vector.graphMinSize,
    messageGraphMinSize: config.vector.messageGraphMinSize,
    residualBudgetMb: config.vector.residualMb,
  });
  const lilo = createLilo(config, { db, vectorIndex: index, embedder, chatModel: unusedModel });
  return {
    db,
    index,
    lilo,
    close: async () => {
      await lilo.close();
      await index.close();
      db.close();
    },
  };
}

/** Turns of two Lilos taken in turn (their graphs loaded or built first); returns each one's milliseconds per turn. */
async function pairedTurns(installs: Install[], embedder: Embedder): Promise<number[][]> {
  const pre = new PrecomputedEmbedder(embedder);
  await pre.prepare(queries);
  const opened = installs.map((inst) => openInstall(inst, pre));
  for (const { lilo, index } of opened) {
    await lilo.preview({ userId: USER, text: queries[0]! }); // loads what the first turn loads: start-up, not a turn
    await lilo.recall.indexMessages(USER);
    await lilo.memory.indexKeywords(USER);
    await index.graphsBuilt(); // graphs are loaded or built in the background after a start
    for (let w = 1; w <= 5; w++) await lilo.preview({ userId: USER, text: queries[w]! });
  }
  const rounds = opened.map(() => 0);
  const out = await paired(installs, ROUNDS, async (i) => {
    const t = performance.now();
    await opened[i]!.lilo.preview({ userId: USER, text: queries[rounds[i]!++]! });
    return performance.now() - t;
  });
  for (const o of opened) await o.close();
  return out;
}

/**
 * `n` rounds of `run` on each install, one of each in turn (which goes first
 * alternates, so neither always follows the other's cache misses); `run`
 * returns the milliseconds it timed. Each install's milliseconds.
 */
async function paired(installs: Install[], n: number, run: (i: number) => Promise<number>): Promise<number[][]> {
  const out = installs.map(() => [] as number[]);
  for (let r = 0; r < n; r++) for (const i of r % 2 ? [1, 0] : [0, 1]) out[i]!.push(await run(i));
  return out;
}

/** Start-ups until the saved graphs are loaded too (they follow the start in the background). */
function pairedGraphLoads(installs: Install[], embedder: Embedder): Promise<number[][]> {
  return paired(installs, STARTS, async (i) => {
    const t = performance.now();
    const o = openInstall(installs[i]!, embedder);
    await o.lilo.warmUp();
    await o.index.graphsLoaded();
    const ms = performance.now() - t;
    // Fewer messages than LILO_MESSAGE_GRAPH_MIN_SIZE keep no graph; one built here would mean the saved one was not used.
    const { graphBuilds } = o.index.copyState();
    if (graphBuilds) throw new Error(`a saved graph was built again instead of loaded (${graphBuilds})`);
    await o.close();
    return ms;
  });
}

/** Start-ups (open, vector index ready). */
function pairedStarts(installs: Install[], embedder: Embedder): Promise<number[][]> {
  return paired(installs, STARTS, async (i) => {
    const t = performance.now();
    const lilo = createLilo(loadConfig(installs[i]!.env), { embedder, chatModel: unusedModel });
    await lilo.warmUp();
    const ms = performance.now() - t;
    await lilo.close();
    return ms;
  });
}

/** Whole starts of the bot process over each install; undefined when the benchmark's embedder is not the hash one the bot entry uses. */
async function pairedBotStarts(installs: Install[], embedder: Embedder): Promise<number[][] | undefined> {
  const hash = /^hash-(\d+)$/.exec(embedder.id);
  if (!hash) return undefined;
  const bot = await botStarts(Number(hash[1]));
  try {
    return await paired(installs, BOT_STARTS, (i) => bot.start(installs[i]!.env));
  } finally {
    await bot.close();
  }
}

function botRow(starts: number[][] | undefined): void {
  const label = `  the whole bot (spawned until all of it runs)`;
  if (starts) row(label, starts, median);
  else console.log(`${label}: not measured, the bot entry embeds by hashing and these installs hold another model's vectors`);
}

/** `lilo backup` runs; each backup is removed after it is timed. */
async function pairedBackups(installs: Install[], embedder: Embedder): Promise<number[][]> {
  const lilos = installs.map((inst) => createLilo(loadConfig(inst.env), { embedder, chatModel: unusedModel }));
  const out = await paired(installs, BACKUPS, async (i) => {
    const t = performance.now();
    const file = await lilos[i]!.backup.create();
    const ms = performance.now() - t;
    rmSync(file);
    return ms;
  });
  for (const lilo of lilos) await lilo.close();
  return out;
}

/** A plain install and its encrypted twin, converted the way `lilo encrypt --apply` converts (same rows, same pages). */
function encryptedTwin(plain: Install): Install {
  const twin = newInstall(true);
  copyFileSync(join(plain.dir, "lilo.db"), join(twin.dir, "lilo.db"));
  convertFile(join(twin.dir, "lilo.db"), undefined, key());
  return twin;
}

const cost = (a: number, b: number) => `${b >= a ? "+" : ""}${(((b - a) / a) * 100).toFixed(0)} %`;
const median = (xs: number[]) => pct(xs, 50);
function row(label: string, [a, b]: number[][], figure: (xs: number[]) => number, detail = ""): void {
  const [x, y] = [figure(a!), figure(b!)];
  console.log(`  ${label.padEnd(44)} ${x.toFixed(1).padStart(9)} ms ${y.toFixed(1).padStart(9)} ms   ${cost(x, y).padStart(6)}${detail}`);
}
const p50s = ([a, b]: number[][]) => `   (p50 ${pct(a!, 50).toFixed(1)} / ${pct(b!, 50).toFixed(1)} ms)`;

async function withInstalls(build: (inst: Install) => Promise<void>, measure: (installs: Install[]) => Promise<void>): Promise<void> {
  const installs = [newInstall(false), newInstall(true)];
  try {
    for (const inst of installs) await build(inst);
    await measure(installs);
  } finally {
    for (const inst of installs) rmSync(inst.dir, { recursive: true, force: true });
  }
}

/** Prints the rows: each measure unencrypted, encrypted, and what encryption costs. */
export async function runAtRestBench(embedder: Embedder): Promise<void> {
  const notes = Number(process.env.BENCH_AT_REST_NOTES ?? 100_000);
  const messages = Number(process.env.BENCH_AT_REST_MESSAGES ?? 100_000);
  const dbMb = Number(process.env.BENCH_AT_REST_DB_MB ?? 1024);
  console.log(`\nencryption at rest (unencrypted and encrypted installs measured in turn)  unencrypted  encrypted   cost`);

  await withInstalls(
    (inst) => fillNotes(inst, embedder, notes),
    async (installs) => {
      const size = mb(statSync(join(installs[0]!.dir, "lilo.db")).size);
      const turns = await pairedTurns(installs, embedder);
      row(`turn memory work p95, ${notes.toLocaleString("en")} notes (${size})`, turns, (xs) => pct(xs, 95), p50s(turns));
      row(`start-up median (open, index ready)`, await pairedStarts(installs, embedder), median);
      botRow(await pairedBotStarts(installs, embedder));
    },
  );

  await withInstalls(
    async (inst) => {
      await fillNotes(inst, embedder, 1000);
      await fillChat(inst, embedder, messages, (i) => sentence(i * 31 + 5).replace("Notiz", i % 2 ? "Antwort" : "Ich"));
    },
    async (installs) => {
      const turns = await pairedTurns(installs, embedder);
      row(`chat-log turn p95, ${messages.toLocaleString("en")} messages + 1,000 notes`, turns, (xs) => pct(xs, 95), p50s(turns));
      // Closed after the turns, each index saved its message graph (from LILO_MESSAGE_GRAPH_MIN_SIZE messages), sealed when encrypted.
      row(`start-up median, the same install with its graphs`, await pairedStarts(installs, embedder), median);
      row(`  its saved graphs in use (loaded after the start)`, await pairedGraphLoads(installs, embedder), median);
      botRow(await pairedBotStarts(installs, embedder));
    },
  );

  // The large database is filled once, unencrypted, and converted: filling it twice would double the longest part of the run.
  const plain = newInstall(false);
  const installs = [plain];
  try {
    const long = (i: number) => [0, 1, 2, 3].map((k) => sentence(i * 4 + k)).join(" ");
    const perMessage = 1850; // bytes a message of four sentences takes with its keyword indexes, measured on a small fill
    await fillChat(plain, embedder, Math.round((dbMb * 2 ** 20) / perMessage), long, false);
    installs.push(encryptedTwin(plain));
    const size = statSync(join(plain.dir, "lilo.db")).size;
    const backups = await pairedBackups(installs, embedder);
    row(`lilo backup median, ${mb(size)} database`, backups, median, `   (runs: ${backups.map((b) => b.map((x) => x.toFixed(0)).join("/")).join(" | ")} ms)`);
  } finally {
    for (const inst of installs) rmSync(inst.dir, { recursive: true, force: true });
  }
}
