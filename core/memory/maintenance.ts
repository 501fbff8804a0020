import type { Embedder } from "../foundation/ports/embedder.ts";
import type { VectorIndex, VectorKey } from "../foundation/ports/vector-index.ts";
import { VECTOR_STORES } from "../foundation/ports/vector-index.ts";
import type { Memory } from "./memory.ts";

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
  const vectorKeys = await index.keys();
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

/**
 * Rebuilds the whole index from SQLite, e.g. after switching the embedding
 * model. `onProgress(done, total)` drives a progress bar.
 */
export async function reindex(
  memory: Memory,
  index: VectorIndex,
  embedder: Embedder,
  onProgress?: (done: number, total: number) => void,
  batchSize = 32,
): Promise<number> {
  const dim = await embedder.dimension();
  await index.reset(dim, embedder.id);
  const total = VECTOR_STORES.reduce((n, s) => n + memory.rows[s].countLive(), 0);
  let done = 0;
  onProgress?.(done, total);
  for (const store of VECTOR_STORES) {
    for (const page of memory.rows[store].iterateLive(batchSize)) {
      const vectors = await embedder.embed(page.map((r) => r.text));
      await index.upsert(page.map((r, j) => ({ store, rowId: r.id, userId: r.userId, vector: vectors[j]! })));
      done += page.length;
      onProgress?.(done, total);
    }
  }
  return done;
}
