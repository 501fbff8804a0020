/**
 * `npm run bench:recall -- --data DIR [--embedder NAME] [--ablate]`: recall
 * quality on LoCoMo (docs/recall.md). Every turn goes in through the
 * public API (one user per conversation, `createdAt` from the data): into the
 * chat log (`recall.importChat`) for the cheat sheet's chat-log search, and through
 * `memory.add` into the notes of a second data directory for
 * `memory.search`. Each question then runs through both and through a plain
 * BM25 baseline (FTS5, question words OR-ed) built in the same run. Every
 * retrieved item is exactly one turn: the neighbour shown as context never
 * counts.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import Database from "better-sqlite3-multiple-ciphers";
import { createLilo, fixedClock, loadConfig, type Embedder, type Lilo, type LiloPorts, type Reranker } from "../../../core/index.ts";
import { type MemoryBlocks } from "../../../core/internal.ts";
import { sheetMessageIds } from "../../../core/conversation/turn/memory-blocks.ts";
import { HashEmbedder } from "../../../core/foundation/providers/hash-embedder.ts";
import { TransformersEmbedder } from "../../../core/foundation/providers/transformers-embedder.ts";
import { TransformersReranker } from "../../../core/foundation/providers/transformers-reranker.ts";

import { CachedEmbedder } from "./cached-embedder.ts";
import { UseLiteEmbedder } from "./use-embedder.ts";
import { loadLocomo, turnText, type Question, type Turn } from "./locomo.ts";
import { SHEET_HEAD, TABLE_HEAD, sheetTable, table, type Outcome } from "./metrics.ts";
import { ablationRuns, ablationTable, type AblationRun } from "./ablation.ts";
import type { SignalName } from "../../../core/memory/recall/signals.ts";

interface Args {
  data: string;
  embedder: string;
  limit: number;
  /** Skip `memory.search` (its notes take most of the fill time) when only the chat-log side is studied. */
  notes: boolean;
  /** Only these conversations (comma-separated sample ids), e.g. to check a rule on a held-out half. */
  samples: string[] | undefined;
  /** Skip `lilo.preview` (the on-the-sheet table) when only the ranking is studied. */
  sheet: boolean;
  /** Write every question's ranked turns (50 deep; times then include the deeper ranking) and evidence as JSON lines to this file (failure analysis). */
  dump: string | undefined;
  /** A cross-encoder's model folder (`<dir>/<owner>/<name>` with config.json, tokenizer files, onnx/): reranks the sheet's candidates. */
  reranker: string | undefined;
  /** Run the chat-log search once with every signal on and once with each signal off; print the ablation table only (with `--no-sheet`: ranking only, no sheet column). */
  ablate: boolean;
}

function parseArgs(argv: string[]): Args {
  const get = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const data = get("data");
  if (!data)
    throw new Error(
      "usage: npm run bench:recall -- --data DIR [--embedder use-lite|hash|<transformers.js model id>] [--limit N] [--no-notes] [--no-sheet] [--dump FILE] [--samples ID,ID] [--reranker MODEL_DIR] [--ablate]",
    );
  return {
    data,
    embedder: get("embedder") ?? "use-lite",
    limit: Number(get("limit") ?? Number.POSITIVE_INFINITY),
    notes: !argv.includes("--no-notes"),
    sheet: !argv.includes("--no-sheet"),
    dump: get("dump"),
    reranker: get("reranker"),
    samples: get("samples")?.split(","),
    ablate: argv.includes("--ablate"),
  };
}

/** The embedder by name: the offline USE lite, the synthetic hash, or a transformers.js model (downloads on a first run). */
function pickEmbedder(name: string): Embedder {
  const inner: Embedder =
    name === "use-lite"
      ? new UseLiteEmbedder()
      : name === "hash"
        ? new HashEmbedder(384)
        : new TransformersEmbedder({ model: name, localDir: ".bench/models", offline: false });
  return new CachedEmbedder(inner, ".bench/vectors");
}

/** The cross-encoder in a model folder, read offline (transformers.js resolves `<parent>/<folder name>`). */
function pickReranker(folder: string | undefined): Reranker | undefined {
  return folder ? new TransformersReranker({ model: basename(resolve(folder)), localDir: dirname(resolve(folder)), offline: true }) : undefined;
}

/** A Lilo on its own temporary data directory, its clock a day after the conversation's last turn. */
function openLilo(
  dir: string,
  embedder: Embedder,
  lastTurn: string,
  speakers: { user: string; userName: string; assistantName: string },
  reranker?: Reranker,
  off?: SignalName,
): Lilo {
  // The first speaker is the user, the second speaks as the persona (named like the data's speaker), as in `fill`.
  const config = loadConfig({
    LILO_DATA_DIR: dir,
    LILO_LANGUAGE: "en",
    LILO_TIMEZONE: "UTC",
    LILO_NAME: speakers.assistantName,
    LILO_USER_NAMES: `${speakers.user}=${speakers.userName}`,
  });
  const now = new Date(Date.parse(lastTurn) + 86_400_000).toISOString();
  // BENCH_TUNING='{"hybrid":{"keywordWeight":2},"chatFusion":{"meaning":2}}' tries other knobs and signal weights without editing code.
  const given = process.env.BENCH_TUNING ? (JSON.parse(process.env.BENCH_TUNING) as NonNullable<LiloPorts["tuning"]>) : undefined;
  const tuning = off ? { ...given, chatFusion: { ...given?.chatFusion, [off]: 0 } } : given;
  return createLilo(config, { embedder, clock: fixedClock(now), ...(tuning ? { tuning } : {}), ...(reranker ? { reranker } : {}) });
}

/** The first speaker is the user (named like the data's speaker), the second speaks as the persona. */
function speakerNames(sample: string, turns: Turn[]): { user: string; userName: string; assistantName: string } {
  return { user: sample, userName: turns[0]!.speaker, assistantName: turns.find((t) => t.speaker !== turns[0]!.speaker)?.speaker ?? "Lilo" };
}

async function timed<T>(fn: () => Promise<T> | T): Promise<{ value: T; ms: number }> {
  const t = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - t };
}

/** Fills both Lilos with one sample's turns; returns row id → dia_id maps and the notes dropped as duplicates. */
async function fill(
  chat: Lilo,
  notes: Lilo | undefined,
  user: string,
  turns: Turn[],
): Promise<{ messages: Map<number, string>; noteIds: Map<number, string>; dropped: number }> {
  const first = turns[0]!.speaker;
  const ids = chat.recall.importChat(
    turns.map((t) => ({ userId: user, role: t.speaker === first ? "user" : "assistant", text: turnText(t), createdAt: t.iso_time })),
  );
  const messages = new Map(ids.map((id, i) => [id, turns[i]!.dia_id]));
  await chat.recall.indexMessages(user);
  const noteIds = new Map<number, string>();
  let dropped = 0;
  for (const t of notes ? turns : []) {
    const r = await notes!.memory.add({ text: turnText(t), userId: user, createdAt: t.iso_time });
    if (r.added) noteIds.set(r.id, t.dia_id);
    else dropped++;
  }
  return { messages, noteIds, dropped };
}

/** The turns a preview's memory blocks put on the sheet: every message of the kept passages and the kept notes. */
function sheetTurns(blocks: MemoryBlocks, messages: Map<number, string>, byText: Map<string, string>): string[] {
  const ids = sheetMessageIds(blocks.passages.kept);
  const notes = blocks.notes.kept.flatMap((n) => byText.get(n.text) ?? []);
  return [...new Set([...ids.map((id) => messages.get(id) ?? "?"), ...notes])];
}

/** The plain baseline: FTS5 bm25 over raw turns, every question word quoted and OR-ed, nothing else. */
function bm25Baseline(samples: Map<string, Turn[]>): (q: Question) => string[] {
  const db = new Database(":memory:");
  db.exec(`CREATE VIRTUAL TABLE t USING fts5(sample UNINDEXED, dia UNINDEXED, text, tokenize='unicode61 remove_diacritics 2')`);
  const ins = db.prepare(`INSERT INTO t (sample, dia, text) VALUES (?, ?, ?)`);
  db.transaction(() => {
    for (const turns of samples.values()) for (const x of turns) ins.run(x.sample_id, x.dia_id, turnText(x));
  })();
  const stmt = db.prepare(`SELECT dia FROM t WHERE t MATCH ? AND sample = ? ORDER BY bm25(t) LIMIT 10`);
  return (q) => {
    const words = [...new Set(q.question.match(/[\p{L}\p{N}]+/gu) ?? [])];
    return words.length ? (stmt.all(words.map((w) => `"${w}"`).join(" OR "), q.sample_id) as { dia: string }[]).map((r) => r.dia) : [];
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const all = loadLocomo(args.data);
  const samples = new Map([...all.samples].filter(([id]) => !args.samples || args.samples.includes(id)));
  const questions = all.questions.filter((q) => samples.has(q.sample_id));
  const reranker = pickReranker(args.reranker);
  const embedder = pickEmbedder(args.embedder);
  if (args.ablate) return ablate(args, samples, questions, embedder, reranker);
  const tmp = mkdtempSync(join(tmpdir(), "lilo-recall-bench-"));
  const out = { sheet: [] as Outcome[], memory: [] as Outcome[], bm25: [] as Outcome[], onSheet: [] as Outcome[] };
  let dropped = 0;
  let turnsTotal = 0;
  const baseline = bm25Baseline(samples);
  try {
    for (const [sample, turns] of samples) {
      turnsTotal += turns.length;
      const last = turns[turns.length - 1]!.iso_time;
      const names = speakerNames(sample, turns);
      const chat = openLilo(join(tmp, sample, "chat"), embedder, last, names, reranker);
      const notes = args.notes ? openLilo(join(tmp, sample, "notes"), embedder, last, names) : undefined;
      const f = await fill(chat, notes, sample, turns);
      dropped += f.dropped;
      const byText = new Map(turns.map((t) => [turnText(t), t.dia_id]));
      const qs = questions.filter((q) => q.sample_id === sample).slice(0, args.limit);
      await embedder.embed(qs.map((q) => q.question)); // query vectors come from the cache: the times below are search only
      for (const q of qs) {
        const base = { category: q.category, evidence: q.evidence, sample, question: q.question };
        const s = await timed(() => chat.recall.rank(q.question, { userId: sample, limit: args.dump ? 50 : 10 }));
        out.sheet.push({ ...base, ranked: s.value.map((m) => f.messages.get(m.id) ?? "?"), ms: s.ms });
        if (notes) {
          const m = await timed(() => notes.memory.search(q.question, { userId: sample, k: 10 }));
          out.memory.push({ ...base, ranked: m.value.map((h) => f.noteIds.get(h.id) ?? "?"), ms: m.ms });
        }
        if (args.sheet) {
          const p = await timed(() => chat.preview({ userId: sample, text: q.question }));
          out.onSheet.push({ ...base, ranked: [], ms: p.ms, sheet: sheetTurns(p.value.blocks, f.messages, byText), tokens: p.value.blocks.usedTokens });
        }
        const b = await timed(() => baseline(q));
        out.bm25.push({ ...base, ranked: b.value, ms: b.ms });
      }
      await chat.close();
      await notes?.close();
    }
  } finally {
    if (embedder instanceof CachedEmbedder) embedder.save();
    rmSync(tmp, { recursive: true, force: true });
  }
  const cpu = cpus();
  console.log(`LoCoMo recall benchmark: ${args.data}`);
  console.log(`${samples.size} conversations, ${turnsTotal} turns, ${out.sheet.length} questions (categories 1–4); embedder ${embedder.id}`);
  if (args.notes) console.log(`notes dropped as duplicates by memory.add: ${dropped}`);
  console.log(`sheet reranker: ${reranker ? reranker.id : "off (--reranker MODEL_DIR; no cross-encoder weights can be downloaded on the build machine)"}`);
  console.log(`machine: ${cpu[0]?.model ?? "?"}, ${cpu.length} cores, node ${process.version}`);
  console.log(`times: search only; query vectors come from the on-disk cache (embedding excluded)`);
  console.log("");
  for (const l of [
    ...TABLE_HEAD,
    ...table("sheet: chat-log search", out.sheet),
    ...(args.notes ? table("memory.search", out.memory) : []),
    ...table("BM25 baseline", out.bm25),
  ])
    console.log(l);
  if (args.sheet) console.log("");
  if (args.sheet)
    console.log(
      "On the sheet: evidence turns in the memory blocks `lilo.preview` keeps for the question (passages with their neighbours, notes); memory budget 2,000 estimated tokens.",
    );
  console.log("");
  if (args.sheet) for (const l of [...SHEET_HEAD, ...sheetTable(out.onSheet)]) console.log(l);
  if (args.dump) writeFileSync(args.dump, out.sheet.map((o, i) => JSON.stringify({ ...o, sheet: out.onSheet[i]?.sheet })).join("\n") + "\n");
}

/**
 * The ablation: each conversation's chat log filled once, then reopened for
 * every run (all signals on, then each one off) and asked every question:
 * the ranking's first ten and the turns on the preview's sheet.
 */
async function ablate(args: Args, samples: Map<string, Turn[]>, questions: Question[], embedder: Embedder, reranker: Reranker | undefined): Promise<void> {
  const started = performance.now();
  const tmp = mkdtempSync(join(tmpdir(), "lilo-recall-ablate-"));
  const runs: AblationRun[] = ablationRuns().map((off) => ({ off, ranked: [], onSheet: [] }));
  try {
    for (const [sample, turns] of samples) {
      const [dir, last, names] = [join(tmp, sample), turns[turns.length - 1]!.iso_time, speakerNames(sample, turns)];
      const filled = openLilo(dir, embedder, last, names, reranker);
      const { messages } = await fill(filled, undefined, sample, turns);
      await filled.close();
      const byText = new Map(turns.map((t) => [turnText(t), t.dia_id]));
      const qs = questions.filter((q) => q.sample_id === sample).slice(0, args.limit);
      for (const run of runs) {
        const chat = openLilo(dir, embedder, last, names, reranker, run.off);
        for (const q of qs) {
          const base = { category: q.category, evidence: q.evidence, ms: 0 };
          const ranked = await chat.recall.rank(q.question, { userId: sample, limit: 10 });
          run.ranked.push({ ...base, ranked: ranked.map((m) => messages.get(m.id) ?? "?") });
          if (!args.sheet) continue;
          const p = await chat.preview({ userId: sample, text: q.question });
          run.onSheet.push({ ...base, ranked: [], sheet: sheetTurns(p.blocks, messages, byText) });
        }
        await chat.close();
      }
    }
  } finally {
    if (embedder instanceof CachedEmbedder) embedder.save();
    rmSync(tmp, { recursive: true, force: true });
  }
  const cpu = cpus();
  console.log(`LoCoMo recall ablation: ${args.data}`);
  console.log(
    `${samples.size} conversations, ${runs[0]!.ranked.length} questions (categories 1–4); embedder ${embedder.id}; sheet reranker ${reranker ? reranker.id : "off"}`,
  );
  console.log(`machine: ${cpu[0]?.model ?? "?"}, ${cpu.length} cores, node ${process.version}; ${new Date().toISOString().slice(0, 10)}`);
  console.log(`${runs.length} runs (every signal on, then each one off) in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  console.log("");
  for (const l of ablationTable(runs)) console.log(l);
}

await main();
