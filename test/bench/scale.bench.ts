/**
 * The rows of `npm run bench` about growth: what a turn costs
 * when the chat log, the number of users or the index grows, each beside a
 * reference measured in the same run, so the ratio is the figure that counts:
 *
 * - chat-log size: the memory work of a turn (no embedding) with 1k / 10k /
 *   100k messages in the user's log, and how long `recall.indexMessages` takes;
 * - many users: one user's turn among 1,000 users × 1,000 notes (200 users with
 *   BENCH_QUICK) beside the same user alone in a database of their own;
 * - the snapshot of the embedded index while those notes are written: bytes
 *   written to snapshot files, the longest stall of the event loop, start-up;
 * - throughput: full turns per second with a zero-latency chat model for 1,
 *   10 and 50 users writing at once (single thread).
 */
import fs, { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createLilo, loadConfig, silentLogger, type ChatModel, type Embedder } from "../../core/index.ts";
import { EmbeddedIndex } from "../../core/foundation/providers/embedded-index/embedded-index.ts";
import { openDatabase, type Db } from "../../core/foundation/store/db.ts";
import { BackgroundCheckpoints } from "../../core/foundation/store/background-checkpoints.ts";
import { statementForm } from "../../core/memory/recall/statement-form.ts";
import { PrecomputedEmbedder, mb, ms, pct, sentence, time, word } from "./bench-kit.ts";

const TURNS = 60;
/** Turns of each Lilo in the many-users row (the queries repeat every TURNS). */
const USER_ROUNDS = 180;
const NO_EXTRACTION = JSON.stringify({ facts: [], content: [], profile: [], important: [] });

/** A chat model that answers at once: chat gets a short reply, a JSON request an empty extraction. */
const instantModel: ChatModel = {
  provider: "bench",
  model: "instant",
  complete: (req) =>
    Promise.resolve({
      text: req.json || req.schema ? NO_EXTRACTION : "Gut, das merke ich mir.",
      model: "instant",
      usage: { inputTokens: 1, outputTokens: 1 },
    }),
};
const noModel: ChatModel = { provider: "bench", model: "none", complete: () => Promise.reject(new Error("the benchmark never calls a model")) };

/** Milliseconds of CPU this process has used (on a shared machine a wall-clock stall may be time the OS gave to others). */
const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

/**
 * Writes `perUser` notes for each user (vector through the index, in batches
 * of 250 as memory.add would over time) and measures the longest stall: the
 * longest upsert call or gap before the event loop came back to us, in wall
 * time and in CPU time the process spent in it.
 */
async function fillNotes(
  db: Db,
  index: EmbeddedIndex,
  embedder: Embedder,
  users: string[],
  perUser: number,
): Promise<{ stallMs: number; stallCpuMs: number; upserts: number[] }> {
  const insert = db.prepare(`INSERT INTO notes (user_id, text, created_at, updated_at) VALUES (?, ?, ?, ?)`);
  const upserts: number[] = [];
  let stallMs = 0;
  let stallCpuMs = 0;
  const BATCH = 250;
  for (let u = 0; u < users.length; u++) {
    for (let start = 0; start < perUser; start += BATCH) {
      const texts = Array.from({ length: Math.min(BATCH, perUser - start) }, (_, j) => sentence(u * 7 + (start + j) * 1009));
      const vectors = await embedder.embed(texts);
      const at = new Date(Date.UTC(2026, 0, 1) + start).toISOString();
      const ids = db.transaction(() => texts.map((t) => Number(insert.run(users[u]!, t, at, at).lastInsertRowid)))();
      let c = cpuMs();
      let t = performance.now();
      await index.upsert(ids.map((id, j) => ({ store: "notes" as const, rowId: id, userId: users[u]!, vector: vectors[j]! })));
      const up = performance.now() - t;
      const upCpu = cpuMs() - c;
      upserts.push(up);
      c = cpuMs();
      t = performance.now();
      await new Promise((r) => setImmediate(r)); // background work scheduled by the index runs here
      stallMs = Math.max(stallMs, up, performance.now() - t);
      stallCpuMs = Math.max(stallCpuMs, upCpu, cpuMs() - c);
    }
  }
  return { stallMs, stallCpuMs, upserts };
}

const queries = Array.from({ length: TURNS }, (_, i) => `Was weißt du über ${word(i * 7 + 1)} und ${word(i * 13 + 2)}? #${i}`);
/** What a turn embeds: each question and the statement the chat-log search embeds beside it (statement-form.ts), so no timed turn embeds. */
const embedded = [...queries, ...queries.flatMap((q) => statementForm(q, {}) ?? [])];

/** Each timed turn's milliseconds, and the CPU time a turn takes (after a first turn that opens the index, not counted). */
async function turnTimes(
  dir: string,
  db: Db,
  embedder: Embedder,
  index: EmbeddedIndex,
  userId: string,
  env: Record<string, string> = {},
): Promise<number[] & { cpu: number }> {
  const pre = new PrecomputedEmbedder(embedder);
  await pre.prepare(embedded);
  const lilo = createLilo(loadConfig({ LILO_DATA_DIR: dir, ...env }), { db, embedder: pre, vectorIndex: index, chatModel: noModel });
  await lilo.preview({ userId, text: queries[0]! }); // loads the index (snapshot, graph): start-up, not a turn
  await lilo.recall.indexMessages(userId); // and waits for the chat log's keyword index in memory, built in slices meanwhile
  await lilo.memory.indexKeywords(userId); // and for the notes' keyword index in memory (a build's slices wait for turns of the event loop, which precomputed turns never give)
  await index.graphsBuilt(); // and for a graph partition's residuals, read from SQLite in the background after a start
  const c = cpuMs();
  const times = await time(TURNS, (i) => lilo.preview({ userId, text: queries[i]! }));
  const cpu = (cpuMs() - c) / (TURNS + Math.min(5, TURNS)); // time() runs five warm-up turns first
  await lilo.close();
  return Object.assign(times, { cpu });
}

/** One Lilo timed by `interleavedTurnTimes`. */
interface TurnSetup {
  dir: string;
  db: Db;
  index: EmbeddedIndex;
  userId: string;
  env?: Record<string, string>;
}

/**
 * Like turnTimes for several Lilos at once, their turns taken in turn (one
 * of each, `rounds` times): a busy minute of the shared machine falls on all
 * of them alike, so their ratios hold where runs one after the other swing.
 * CPU per turn is each turn's own.
 */
async function interleavedTurnTimes(embedder: Embedder, setups: TurnSetup[], rounds: number): Promise<(number[] & { cpu: number; cpus: number[] })[]> {
  const pre = new PrecomputedEmbedder(embedder);
  await pre.prepare(embedded);
  const lilos = setups.map((s) =>
    createLilo(loadConfig({ LILO_DATA_DIR: s.dir, ...s.env }), { db: s.db, embedder: pre, vectorIndex: s.index, chatModel: noModel }),
  );
  for (const [i, lilo] of lilos.entries()) {
    const { userId } = setups[i]!;
    await lilo.preview({ userId, text: queries[0]! }); // loads the index: start-up, not a turn
    await lilo.recall.indexMessages(userId);
    await lilo.memory.indexKeywords(userId);
    await setups[i]!.index.graphsBuilt(); // a graph partition's residuals, read from SQLite in the background after a start
    for (let w = 1; w <= 5; w++) await lilo.preview({ userId, text: queries[w]! }); // warm-up
  }
  const out = setups.map(() => Object.assign([] as number[], { cpu: 0, cpus: [] as number[] }));
  for (let r = 0; r < rounds; r++) {
    for (const [i, lilo] of lilos.entries()) {
      const c = cpuMs();
      const t = performance.now();
      await lilo.preview({ userId: setups[i]!.userId, text: queries[r % queries.length]! });
      out[i]!.push(performance.now() - t);
      out[i]!.cpus.push(cpuMs() - c);
      out[i]!.cpu += out[i]!.cpus.at(-1)!;
    }
  }
  for (const o of out) o.cpu /= rounds;
  for (const lilo of lilos) await lilo.close();
  return out;
}

/** Share of the exact search's top k (by score: equal scores may differ in id) the graph's search also returns. */
async function recallVsExact(graph: EmbeddedIndex, exact: EmbeddedIndex, vectors: Float32Array[], k: number): Promise<number> {
  let sum = 0;
  for (const vector of vectors) {
    const q = { vector, store: "messages" as const, userId: "bench", k };
    const want = await exact.search(q);
    const kth = (want.at(-1)?.score ?? 0) - 1e-4; // a graph partition rescores in RAM: cosines within 1e-4 of the floats
    sum += Math.min(want.length, (await graph.search(q)).filter((h) => h.score >= kth).length) / Math.max(1, want.length);
  }
  return sum / vectors.length;
}

/** One row's turn figures: p50/p95, ratio to the first size, CPU a turn and its ratio. */
function turnFigures(times: number[], cpu: number, ref: { p95: number; cpu: number }): string {
  return `${ms(times)}   ×${(pct(times, 95) / ref.p95).toFixed(2)} of the first size (p95); CPU ${cpu.toFixed(1)} ms a turn (×${(cpu / ref.cpu).toFixed(2)})`;
}

/** From this many messages the chat-log row is also run the other way (by exact scan when it used a graph, else through one). */
const GRAPH_ROW_FROM = Number(process.env.BENCH_GRAPH_ROW_FROM ?? 100_000);

/**
 * The same turn with the user's message vectors searched the other way
 * (the same database): by exact scan when the row used a graph
 * (LILO_MESSAGE_GRAPH_MIN_SIZE), else through a graph built here; with the
 * graph's recall@k against the exact scan (k = 10, 100 as a turn asks, 200).
 */
async function otherWayRow(dir: string, db: Db, embedder: Embedder, main: EmbeddedIndex, ref: { p95: number; cpu: number }): Promise<void> {
  const dim = await embedder.dimension();
  await main.init(dim, embedder.id); // the turns' lilo closed it
  await main.graphsBuilt();
  const mainHasGraph = main.copyState().graphs > 0;
  const other = mainHasGraph
    ? new EmbeddedIndex(db, { snapshotPath: join(dir, "exact.vectors"), messageGraphMinSize: Number.POSITIVE_INFINITY })
    : new EmbeddedIndex(db, { snapshotPath: join(dir, "graph.vectors"), messageGraphMinSize: 1, graphBuild: "inline" });
  const t = performance.now();
  await other.init(dim, embedder.id);
  const loadS = (performance.now() - t) / 1000;
  other.save(); // with a graph: the turns' lilo opens it again from the snapshot
  const times = await turnTimes(dir, db, embedder, other, "bench");
  await other.init(dim, embedder.id);
  const [graph, exact] = mainHasGraph ? [main, other] : [other, main];
  const searchesBefore = graph.copyState().graphSearches ?? 0;
  const qv = await embedder.embed(queries);
  const [r10, r100, r200] = [await recallVsExact(graph, exact, qv, 10), await recallVsExact(graph, exact, qv, 100), await recallVsExact(graph, exact, qv, 200)];
  if ((graph.copyState().graphSearches ?? 0) === searchesBefore) throw new Error("the graph was not searched");
  console.log(
    `  ${(mainHasGraph ? "  the same by exact scan" : "  the same through a graph").padEnd(34)} ${turnFigures(times, times.cpu, ref)}; ` +
      `recall@10 ${r10.toFixed(3)}, @100 (a turn's) ${r100.toFixed(3)}, @200 ${r200.toFixed(3)} of the graph vs the exact scan` +
      (mainHasGraph ? "" : `; graph built in ${loadS.toFixed(1)} s`),
  );
  await other.close();
}

/**
 * Chat-log size: the same turn with 1k, 10k, 100k messages in the user's log
 * (the message vectors in a graph from LILO_MESSAGE_GRAPH_MIN_SIZE, as the bot
 * runs). From 100k messages (BENCH_GRAPH_ROW_FROM) the turn is also run the
 * other way (otherWayRow), with the graph's recall@k against the exact scan
 * (k = 10, and 200).
 */
async function chatLogRows(embedder: Embedder, sizes: number[]): Promise<void> {
  console.log(`chat-log size (one user, 1,000 notes; turn = memory work of lilo.preview, no embedding)   p50 ms   p95 ms`);
  let ref: { p95: number; cpu: number } | undefined;
  let ftsRef: { p95: number; cpu: number } | undefined;
  // Each size's install stays until its turns were taken in turn with the others' (the paired row at the end).
  const kept: (TurnSetup & { n: number })[] = [];
  try {
    for (const n of sizes) {
      const dir = mkdtempSync(join(tmpdir(), "lilo-bench-chat-"));
      const dim = await embedder.dimension();
      const db = openDatabase(join(dir, "lilo.db"));
      const index = new EmbeddedIndex(db);
      kept.push({ n, dir, db, index, userId: "bench" });
      await index.init(dim, embedder.id);
      await fillNotes(db, index, embedder, ["bench"], 1000);
      const lilo = createLilo(loadConfig({ LILO_DATA_DIR: dir }), { db, embedder, vectorIndex: index, chatModel: noModel });
      const start = Date.UTC(2021, 0, 1);
      const msgs = Array.from({ length: n }, (_, i) => ({
        userId: "bench",
        role: i % 2 ? ("assistant" as const) : ("user" as const),
        text: sentence(i * 31 + 5).replace("Notiz", i % 2 ? "Antwort" : "Ich"),
        // Conversations of 20 messages a minute apart, two a day: 100k messages span about seven years.
        createdAt: new Date(start + Math.floor(i / 20) * 12 * 3_600_000 + (i % 20) * 60_000).toISOString(),
      }));
      let t = performance.now();
      lilo.recall.importChat(msgs); // one transaction through the store, as `lilo import` does
      const importMs = performance.now() - t;
      t = performance.now();
      await lilo.recall.indexMessages("bench");
      const indexMs = performance.now() - t;
      const t2 = performance.now();
      await index.graphsBuilt(); // from LILO_MESSAGE_GRAPH_MIN_SIZE a message graph, built in the background
      const graphS = index.copyState().graphs > 0 ? (performance.now() - t2) / 1000 : undefined;
      await lilo.close();
      // The same turn with the keyword side ranked by FTS5 alone (the index in memory off: the code before it), measured
      // first, so the process's warm-up (the first size's first turns run colder) counts against it, not the index.
      const ftsTimes = await turnTimes(dir, db, embedder, index, "bench", { LILO_CHAT_KEYWORD_INDEX_MB: "0" });
      ftsRef ??= { p95: pct(ftsTimes, 95), cpu: ftsTimes.cpu };
      const times = await turnTimes(dir, db, embedder, index, "bench");
      ref ??= { p95: pct(times, 95), cpu: times.cpu };
      console.log(
        `  ${`${n.toLocaleString("en")} messages`.padEnd(34)} ${turnFigures(times, times.cpu, ref)}; ` +
          `import ${(importMs / 1000).toFixed(1)} s, indexMessages ${(indexMs / 1000).toFixed(1)} s (${((indexMs / n) * 1000).toFixed(0)} ms per 1,000)` +
          (graphS !== undefined ? `; message graph (background) built ${graphS.toFixed(1)} s after` : "; exact scan"),
      );
      console.log(`  ${"  the same, bm25 by FTS5 (index off)".padEnd(34)} ${turnFigures(ftsTimes, ftsTimes.cpu, ftsRef)}`);
      if (n >= GRAPH_ROW_FROM) await otherWayRow(dir, db, embedder, index, ref);
    }
    // The rows above run one size after the other, so a busy minute of a shared machine lands on one of them: the same
    // turns again, one of each size in turn, give the ratio to hold against the goal.
    if (kept.length > 1) {
      const paired = await interleavedTurnTimes(embedder, kept, TURNS);
      const [first, last] = [paired[0]!, paired.at(-1)!];
      console.log(
        `  ${"paired: one turn of each in turn".padEnd(34)} ` +
          kept.map((k, i) => `${k.n.toLocaleString("en")}: ${ms(paired[i]!).trim().replace(/\s+/, " / ")} ms`).join(", ") +
          `; ${kept.at(-1)!.n.toLocaleString("en")} ×${(pct(last, 95) / pct(first, 95)).toFixed(2)} of ${kept[0]!.n.toLocaleString("en")} (p95), CPU ×${(last.cpu / first.cpu).toFixed(2)}`,
      );
    }
  } finally {
    for (const k of kept) {
      await k.index.close();
      k.db.close();
      rmSync(k.dir, { recursive: true, force: true });
    }
  }
}

/** Many users: one user's turn among `users` × 1,000 notes beside the same user alone; the snapshot while filling. */
async function manyUsersRows(embedder: Embedder, users: number): Promise<void> {
  const dim = await embedder.dimension();
  const names = Array.from({ length: users }, (_, i) => `user${i}`);
  const aloneDir = mkdtempSync(join(tmpdir(), "lilo-bench-alone-"));
  const manyDir = mkdtempSync(join(tmpdir(), "lilo-bench-many-"));
  try {
    const aloneDb = openDatabase(join(aloneDir, "lilo.db"));
    const alone = new EmbeddedIndex(aloneDb);
    await alone.init(dim, embedder.id);
    await fillNotes(aloneDb, alone, embedder, [names[0]!], 1000);

    const file = join(manyDir, "lilo.db");
    const db = openDatabase(file);
    const index = new EmbeddedIndex(db); // default snapshot settings, as the bot runs
    // SQLite's checkpoints on a worker, as the bot runs (BENCH_INLINE_CHECKPOINTS=1: inside the commits, SQLite's default).
    const checkpoints = process.env.BENCH_INLINE_CHECKPOINTS === "1" ? undefined : new BackgroundCheckpoints(db, file, silentLogger);
    await index.init(dim, embedder.id);
    const writtenBefore = index.snapshotStats()!.bytesWritten;
    let t = performance.now();
    const fill = await fillNotes(db, index, embedder, names, 1000);
    const fillS = (performance.now() - t) / 1000;
    const { bytesWritten, longestStepMs, longestStepCpuMs } = index.snapshotStats()!;
    const written = bytesWritten - writtenBefore;
    // The fill's background work done first (snapshot files written, the WAL checkpointed by the worker): its threads' CPU would land in the turns.
    await index.saved();
    await checkpoints?.now();
    // Alone, among the others, and among them with FTS5 ranking the notes' words (the keyword index in memory off: the code before), turn by turn.
    const [aloneTimes, manyTimes, ftsTimes] = await interleavedTurnTimes(
      embedder,
      [
        { dir: aloneDir, db: aloneDb, index: alone, userId: names[0]! },
        { dir: manyDir, db, index, userId: names[0]! },
        { dir: manyDir, db, index, userId: names[0]!, env: { LILO_MEMORY_KEYWORD_INDEX_MB: "0" } },
      ],
      USER_ROUNDS,
    );
    await index.close();
    const total = users * 1000;
    const snapBytes = fs
      .readdirSync(manyDir)
      .filter((f) => f.includes(".vectors"))
      .reduce((n, f) => n + fs.statSync(join(manyDir, f)).size, 0);
    const c = cpuMs();
    t = performance.now();
    const again = new EmbeddedIndex(db);
    await again.init(dim, embedder.id);
    const startMs = performance.now() - t;
    const startCpu = cpuMs() - c;
    await again.close();
    await checkpoints?.stop();
    db.close();
    aloneDb.close();
    console.log(
      `many users (${users.toLocaleString("en")} users × 1,000 notes = ${total.toLocaleString("en")} notes; filled in ${fillS.toFixed(0)} s)    p50 ms   p95 ms`,
    );
    const vsAlone = (xs: number[] & { cpu: number; cpus: number[] }) =>
      `${ms(xs)}   ×${(pct(xs, 95) / pct(aloneTimes!, 95)).toFixed(2)} of alone (p95), ×${(pct(xs, 50) / pct(aloneTimes!, 50)).toFixed(2)} (p50); ` +
      `CPU ${xs.cpu.toFixed(2)} ms a turn (×${(xs.cpu / aloneTimes!.cpu).toFixed(2)}), CPU p95 ${pct(xs.cpus, 95).toFixed(2)} ms (×${(pct(xs.cpus, 95) / pct(aloneTimes!.cpus, 95)).toFixed(2)})`;
    console.log(`  (${USER_ROUNDS} turns each, taken in turn: alone, among them, among them by FTS5; load average ${loadavg()[0]!.toFixed(1)})`);
    console.log(
      `  ${"same user alone (reference)".padEnd(34)} ${ms(aloneTimes!)}   CPU ${aloneTimes!.cpu.toFixed(2)} ms a turn, CPU p95 ${pct(aloneTimes!.cpus, 95).toFixed(2)} ms`,
    );
    console.log(`  ${`one user among ${users.toLocaleString("en")}`.padEnd(34)} ${vsAlone(manyTimes!)}`);
    console.log(`  ${"  the same, bm25 by FTS5 (before)".padEnd(34)} ${vsAlone(ftsTimes!)}`);
    console.log(
      `  snapshot while writing ${total.toLocaleString("en")} notes in batches of 250: ${mb(written)} written to snapshot files ` +
        `(${(written / Math.max(1, snapBytes)).toFixed(1)}× the final ${mb(snapBytes)}); longest stall ${fill.stallMs.toFixed(0)} ms wall / ` +
        `${fill.stallCpuMs.toFixed(0)} ms CPU (SQLite checkpoints ${checkpoints ? "on a worker" : "inside commits"}; load average ${loadavg()[0]!.toFixed(1)}; longest step of snapshot work on the event loop ` +
        `${longestStepMs.toFixed(1)} ms wall / ${longestStepCpuMs.toFixed(1)} ms CPU, its file writes off the loop), ` +
        `upsert p50/p95 ${ms(fill.upserts).trim().replace(/\s+/, " / ")} ms; start-up (snapshot load + catch-up) ${startMs.toFixed(0)} ms wall / ${startCpu.toFixed(0)} ms CPU`,
    );
  } finally {
    rmSync(aloneDir, { recursive: true, force: true });
    rmSync(manyDir, { recursive: true, force: true });
  }
}

/** Full turns per second with a model that answers at once, for 1, 10 and 50 users writing at the same time. */
async function throughputRows(embedder: Embedder): Promise<void> {
  console.log(`throughput (lilo.handleMessage, zero-latency model, one thread; each user sends turns one after another)`);
  let ref: number | undefined;
  for (const users of [1, 10, 50]) {
    const dir = mkdtempSync(join(tmpdir(), "lilo-bench-tp-"));
    try {
      const names = Array.from({ length: users }, (_, i) => `tp${i}`);
      const lilo = createLilo(loadConfig({ LILO_DATA_DIR: dir, LILO_USER_NAMES: names.map((n) => `${n}=${n}`).join(",") }), {
        embedder,
        chatModel: instantModel,
      });
      const perUser = Math.max(4, Math.ceil(200 / users));
      const send = (u: string, i: number) => lilo.handleMessage({ userId: u, text: `${sentence(i * 17 + u.length)} Wie geht es dir?`, transport: "bench" });
      await Promise.all(names.map((u) => send(u, 0))); // warm-up
      const c = cpuMs();
      const t = performance.now();
      await Promise.all(
        names.map(async (u) => {
          for (let i = 1; i <= perUser; i++) await send(u, i);
        }),
      );
      const wall = performance.now() - t;
      const perS = (users * perUser) / (wall / 1000);
      const cpu = cpuMs() - c;
      ref ??= perS;
      // CPU ÷ wall near 1: the one thread is busy all the time (the limit); well below: the turns wait (I/O, timers).
      console.log(
        `  ${`${users} user${users > 1 ? "s" : ""} at once`.padEnd(34)} ${perS.toFixed(1).padStart(8)} turns/s   ×${(perS / ref).toFixed(2)} of 1 user; ` +
          `CPU ${(cpu / (users * perUser)).toFixed(1)} ms a turn, CPU ÷ wall ${(cpu / wall).toFixed(2)}`,
      );
      await lilo.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

/** Runs the growth rows; sizes shrink with BENCH_QUICK (BENCH_CHAT_SIZES and BENCH_USERS override). */
export async function runScaleBench(embedder: Embedder, o: { quick: boolean; million: boolean }): Promise<void> {
  const chatSizes = (process.env.BENCH_CHAT_SIZES ?? "1000,10000,100000").split(",").map(Number);
  const users = Number(process.env.BENCH_USERS ?? (o.quick ? 200 : 1000));
  if (process.env.BENCH_SKIP_CHAT !== "1") await chatLogRows(embedder, chatSizes);
  if (process.env.BENCH_SKIP_USERS !== "1") await manyUsersRows(embedder, users);
  if (process.env.BENCH_SKIP_THROUGHPUT !== "1") await throughputRows(embedder);
}
