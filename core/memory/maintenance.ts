import type { Embedder } from "../foundation/ports/embedder.ts";
import type { VectorIndex, VectorKey } from "../foundation/ports/vector-index.ts";
import { VECTOR_STORES } from "../foundation/ports/vector-index.ts";
import type { Memory } from "./memory.ts";
import { z } from "zod";
import { LiloError, VectorIndexError } from "../foundation/errors.ts";
import { MAINTENANCE_KIND_PREFIX, type JobsStore } from "../foundation/store/jobs.ts";
import { currentProcess, isRunning } from "../foundation/store/writer-lock.ts";

/** What `lilo doctor` found. */
export interface ConsistencyReport {
  rows: number;
  vectors: number;
  /** Live rows the index has no vector for (not findable by meaning). */
  rowsWithoutVector: VectorKey[];
  /** Vectors whose row is gone or superseded (must never be shown). */
  vectorsWithoutRow: VectorKey[];
  /** Half-deleted: rows whose forget was interrupted (tombstoned); finished by deleting vector and row, never re-embedded. */
  halfDeleted: VectorKey[];
}

const keyOf = (k: { store: string; rowId: number }) => `${k.store}#${k.rowId}`;

/** Compares the live rows of every vector store with the index. */
export async function checkConsistency(memory: Memory, index: VectorIndex): Promise<ConsistencyReport> {
  await memory.init();
  // Chat-message vectors live in the same index; this check is about the memory stores' rows.
  const vectorKeys = (await index.keys()).filter((k): k is VectorKey => k.store !== "messages");
  const vectors = new Map(vectorKeys.map((k) => [keyOf(k), k]));
  const rowsWithoutVector: VectorKey[] = [];
  let rows = 0;
  for (const store of VECTOR_STORES) {
    for (const page of memory.rows[store].iterateLive()) {
      for (const r of page) {
        rows++;
        const key = keyOf({ store, rowId: r.id });
        if (vectors.has(key)) vectors.delete(key);
        else rowsWithoutVector.push({ store, rowId: r.id, userId: r.userId });
      }
    }
  }
  const halfDeleted = VECTOR_STORES.flatMap((store) => memory.rows[store].tombstoned().map((r) => ({ store, rowId: r.id, userId: r.userId })));
  for (const k of halfDeleted) vectors.delete(keyOf(k));
  return { rows, vectors: vectorKeys.length, rowsWithoutVector, vectorsWithoutRow: [...vectors.values()], halfDeleted };
}

/**
 * Fixes what checkConsistency found, each in its own direction: finishes
 * half-done forgets (vector, then row), deletes orphan vectors, and embeds
 * half-added rows (a row whose vector was never written).
 */
export async function repairConsistency(memory: Memory, index: VectorIndex, embedder: Embedder, report: ConsistencyReport, batchSize = 32): Promise<void> {
  if (report.halfDeleted.length) {
    await index.delete(report.halfDeleted);
    for (const k of report.halfDeleted) memory.rows[k.store].delete(k.rowId);
  }
  if (report.vectorsWithoutRow.length) await index.delete(report.vectorsWithoutRow);
  for (let i = 0; i < report.rowsWithoutVector.length; i += batchSize) {
    // Read the rows again: one deleted or superseded since the check (the bot runs meanwhile) must not get a vector.
    const live = report.rowsWithoutVector.slice(i, i + batchSize).flatMap((k) => {
      const row = memory.rows[k.store].get(k.rowId);
      return row && !row.supersededAt ? [{ key: { store: k.store, rowId: row.id, userId: row.userId }, text: row.text }] : [];
    });
    if (live.length === 0) continue;
    const vectors = await embedder.embed(live.map((l) => l.text));
    await index.upsert(live.map((l, j) => ({ ...l.key, vector: vectors[j]! })));
  }
}

/** A reindex's progress, stored in its job row after every batch: a killed reindex continues from here. */
const reindexProgress = z.object({
  /** The model the vectors are made with; another model starts over. */
  embedderId: z.string(),
  dimension: z.number().int().positive(),
  /** The index was emptied for this model (before that, it may still hold the old model's vectors). */
  reset: z.boolean(),
  /** Index into VECTOR_STORES of the store being embedded, and the last row id done there. */
  store: z.number().int().min(0),
  lastId: z.number().int().min(0),
  done: z.number().int().min(0),
  /** The process working on it, so a second process does not run it at the same time. */
  owner: z.object({ pid: z.number().int(), startTicks: z.string().nullable() }),
});
/** How far a reindex got, as its job row records it. */
export type ReindexProgress = z.infer<typeof reindexProgress>;

/** The job kind of a reindex (a maintenance run: DurableJobs leaves it to this code). */
const REINDEX_JOB = `${MAINTENANCE_KIND_PREFIX}reindex`;

/** Another live process is running the reindex. */
class ReindexBusyError extends LiloError<"locked"> {
  constructor(readonly pid: number) {
    super("locked", `A reindex is already running (pid ${pid}); it continues there, and the bot finishes it on its next start if that process dies.`);
  }
}

/** What a reindex did. */
export interface ReindexOutcome {
  /** Memories embedded so far (over every run of this reindex). */
  done: number;
  total: number;
  /** It continued an interrupted reindex instead of starting afresh. */
  resumed: boolean;
  /** False when `signal` stopped it: the job stays pending and the next run continues. */
  finished: boolean;
}

/** What a reindex works with. */
export interface ReindexDeps {
  memory: Memory;
  index: VectorIndex;
  embedder: Embedder;
  jobs: JobsStore;
  now: () => string;
  /** The chat-message vectors, which share the index: forgotten when it is emptied, embedded again at the end. */
  messages?: { forgetAll(): void; indexAll(): Promise<number> };
}

/** The interrupted reindex to continue, if one is pending. */
export function pendingReindex(jobs: JobsStore): ReindexProgress | undefined {
  const job = jobs.latestPending(REINDEX_JOB);
  const p = job && reindexProgress.safeParse(job.payload);
  return p?.success ? p.data : undefined;
}

/**
 * Records that the index lacks vectors of rows written while the embedding
 * model was missing: a pending reindex whose payload is no progress yet, so
 * the next run (the bot, once the model loads, or its next start) starts it
 * afresh and is resumable from then on.
 */
export function markIndexBehind(jobs: JobsStore, now: string): void {
  jobs.exclusive(() => {
    if (!jobs.latestPending(REINDEX_JOB)) jobs.add("", REINDEX_JOB, { behind: true }, now);
  });
}

/** Is a reindex pending (interrupted, or marked by rows written without the model)? */
export function reindexPending(jobs: JobsStore): boolean {
  return jobs.latestPending(REINDEX_JOB) !== undefined;
}

/**
 * Rebuilds the whole index from SQLite, e.g. after switching the embedding
 * model, resumably: the run is a job row recording the model and the last
 * row done after every batch, so a second run (or the bot's start, with
 * `onlyResume`) continues an interrupted one instead of leaving rows
 * without vectors. `onProgress(done, total)` drives a progress bar;
 * `signal` stops it between batches (the job stays pending).
 * Returns undefined with `onlyResume` when there is nothing to continue.
 */
export async function reindex(
  deps: ReindexDeps,
  opts: { onProgress?: (done: number, total: number) => void; signal?: AbortSignal; onlyResume?: boolean; batchSize?: number } = {},
): Promise<ReindexOutcome | undefined> {
  const { memory, index, embedder, jobs, now } = deps;
  const batchSize = opts.batchSize ?? 32;
  const dimension = await embedder.dimension();
  const fresh = (): ReindexProgress => ({ embedderId: embedder.id, dimension, reset: false, store: 0, lastId: 0, done: 0, owner: currentProcess() });
  // Claimed inside one write transaction: two processes starting at once cannot both take it.
  const claim = jobs.exclusive(() => {
    const job = jobs.latestPending(REINDEX_JOB);
    const parsed = job && reindexProgress.safeParse(job.payload);
    const old = parsed?.success ? parsed.data : undefined;
    if (old && old.owner.pid !== process.pid && isRunning(old.owner)) throw new ReindexBusyError(old.owner.pid);
    if (!job && opts.onlyResume) return undefined;
    // Made for another model (the setting changed since), or unreadable: start over.
    const same = old && old.embedderId === embedder.id && old.dimension === dimension;
    const progress = same ? { ...old, owner: currentProcess() } : fresh();
    if (job) {
      jobs.progress(job.id, progress, now());
      return { id: job.id, progress, resumed: !!same };
    }
    return { id: jobs.add("", REINDEX_JOB, progress, now()), progress, resumed: false };
  });
  if (!claim) return undefined;
  let p = claim.progress;
  const save = (next: ReindexProgress) => {
    p = next;
    jobs.progress(claim.id, p, now());
  };
  if (!p.reset) {
    await index.reset(dimension, embedder.id);
    deps.messages?.forgetAll();
    save({ ...p, reset: true });
  } else {
    try {
      await memory.init();
    } catch (err) {
      // The index holds another model again (a restore, another reindex): nothing of this run is left, start over.
      if (!(err instanceof VectorIndexError)) throw err;
      await index.reset(dimension, embedder.id);
      deps.messages?.forgetAll();
      save({ ...fresh(), reset: true });
    }
  }
  const total = VECTOR_STORES.reduce((n, s) => n + memory.rows[s].countLive(), 0);
  opts.onProgress?.(p.done, total);
  for (let s = p.store; s < VECTOR_STORES.length; s++) {
    const store = VECTOR_STORES[s]!;
    for (const page of memory.rows[store].iterateLive(batchSize, s === p.store ? p.lastId : 0)) {
      if (opts.signal?.aborted) return { done: p.done, total, resumed: claim.resumed, finished: false };
      const vectors = await embedder.embed(page.map((r) => r.text));
      // Read the rows again: one forgotten or superseded meanwhile (the bot runs) must not get a vector.
      const live = page.flatMap((r, j) => {
        const now = memory.rows[store].get(r.id);
        return now && !now.supersededAt && !now.forgottenAt ? [{ store, rowId: r.id, userId: r.userId, vector: vectors[j]! }] : [];
      });
      await index.upsert(live);
      save({ ...p, store: s, lastId: page[page.length - 1]!.id, done: p.done + page.length });
      opts.onProgress?.(p.done, total);
    }
    save({ ...p, store: s + 1, lastId: 0 });
  }
  // Chat messages last: marks make this resumable (a message embedded before a kill is not embedded again).
  if (opts.signal?.aborted) return { done: p.done, total, resumed: claim.resumed, finished: false };
  await deps.messages?.indexAll();
  jobs.done(claim.id, now());
  return { done: p.done, total, resumed: claim.resumed, finished: true };
}
