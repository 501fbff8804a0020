import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3-multiple-ciphers";
import { INDEX_STORES, type IndexStore } from "../../ports/vector-index.ts";
import { VectorIndexError } from "../../errors.ts";
import type { Db } from "../db.ts";

/**
 * The SQLite side of the embedded index: the float vectors (the truth the RAM
 * copy is derived from and rescoring reads) and a change log. Every write
 * appends to the log in the same transaction as the vector, so a RAM copy
 * that knows the last sequence number it applied can catch up exactly —
 * after a crash, or after another process (the CLI) wrote.
 *
 * The tables belong to the index (as the removed sqlite-vec backend's vec0 table did) and are
 * created by it, not by a schema migration: they are derived data that
 * `lilo reindex` drops and refills.
 */
const VECTORS = "memory_vectors";
const CHANGES = "memory_vector_changes";
const META = "memory_vector_meta";

export interface TableMeta {
  dimension: number;
  embedderId: string;
  /** Random id of this generation of the tables; a reset makes a new one, so stale snapshots are recognised. */
  generation: string;
  /** Log entries up to here were pruned: a copy that applied less must reload everything. */
  prunedThrough: number;
}

interface StoredVector {
  store: IndexStore;
  rowId: number;
  userId: string;
  vector: Float32Array;
}

export interface Change {
  seq: number;
  store: IndexStore;
  rowId: number;
  userId: string;
}

/** Prepared statements over the three tables, prepared once per connection. */
export class VectorTable {
  private readonly stmts: ReturnType<typeof prepare>;

  constructor(private readonly db: Db) {
    createTables(db);
    this.stmts = prepare(db);
  }

  meta(): TableMeta | undefined {
    return this.stmts.meta.get() as TableMeta | undefined;
  }

  /** Drops every vector and the log, and starts a new generation. */
  reset(dimension: number, embedderId: string): TableMeta {
    const meta = { dimension, embedderId, generation: randomUUID(), prunedThrough: 0 };
    this.db
      .transaction(() => {
        this.db.exec(`DELETE FROM ${VECTORS}; DELETE FROM ${CHANGES}; DELETE FROM ${META};`);
        this.stmts.putMeta.run(meta.dimension, meta.embedderId, meta.generation);
      })
      .immediate();
    return meta;
  }

  /** The vector of one row, or undefined. */
  get(store: IndexStore, rowId: number): StoredVector | undefined {
    const r = this.stmts.get.get(keyOf(store, rowId)) as { user_id: string; vector: Buffer } | undefined;
    return r ? { store, rowId, userId: r.user_id, vector: toFloats(r.vector) } : undefined;
  }

  /**
   * Float vectors of rows for rescoring (missing rows are left out). One
   * statement for all of them: a turn rescores 150 message candidates, and a
   * statement per row cost more than the reads (`npm run bench`).
   */
  floats(store: IndexStore, rowIds: number[]): Map<number, Float32Array> {
    const out = new Map<number, Float32Array>();
    if (!rowIds.length) return out;
    const keys = rowIds.map((id) => keyOf(store, id));
    const blobs = new Map(this.stmts.vectorsOf.all(JSON.stringify(keys)) as [number, Buffer][]);
    // In the order asked (the candidates' rank): equal scores keep it, as they did when read one by one.
    rowIds.forEach((id, i) => {
      const b = blobs.get(keys[i]!);
      // Read in place when the BLOB is aligned (the usual case); rescoring only reads it once.
      if (b) out.set(id, b.byteOffset % 4 === 0 ? new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4) : toFloats(b));
    });
    return out;
  }

  /** Writes vectors and their log entries; call inside a transaction. Returns the last sequence number. */
  put(records: StoredVector[]): number {
    let seq = 0;
    for (const r of records) {
      this.stmts.put.run(keyOf(r.store, r.rowId), r.store, r.rowId, r.userId, Buffer.from(r.vector.buffer, r.vector.byteOffset, r.vector.byteLength));
      seq = Number(this.stmts.log.run(r.store, r.rowId, r.userId).lastInsertRowid);
    }
    return seq;
  }

  /** Deletes vectors (unknown keys ignored) and logs them; call inside a transaction. Returns the last sequence number or 0. */
  remove(keys: { store: IndexStore; rowId: number }[]): number {
    let seq = 0;
    for (const k of keys) {
      const gone = this.stmts.del.get(keyOf(k.store, k.rowId)) as { user_id: string } | undefined;
      if (!gone) continue;
      seq = Number(this.stmts.log.run(k.store, k.rowId, gone.user_id).lastInsertRowid);
    }
    return seq;
  }

  /** Changes after `seq`, oldest first. */
  changesAfter(seq: number): Change[] {
    return (this.stmts.changes.all(seq) as { seq: number; store: IndexStore; row_id: number; user_id: string }[]).map((c) => ({
      seq: c.seq,
      store: c.store,
      rowId: c.row_id,
      userId: c.user_id,
    }));
  }

  /** The newest sequence number ever handed out (0 for none). */
  lastSeq(): number {
    return (this.stmts.lastSeq.get() as { seq: number | null }).seq ?? 0;
  }

  /**
   * Forgets log entries up to `seq` (a snapshot holds them), at most `limit`
   * of them (the oldest), and records how far it did. True when more are left.
   */
  prune(seq: number, limit = Number.POSITIVE_INFINITY): boolean {
    if (seq <= 0) return false;
    return this.db
      .transaction(() => {
        const first = (this.stmts.firstSeq.get() as { seq: number | null }).seq ?? seq;
        const upTo = Math.min(seq, first + limit - 1);
        this.stmts.prune.run(upTo);
        this.stmts.setPruned.run(upTo);
        return upTo < seq;
      })
      .immediate();
  }

  count(): number {
    return (this.stmts.count.get() as { n: number }).n;
  }

  /** Every vector, in pages (start-up rebuild, reindex of the RAM copy). */
  *iterate(pageSize = 5000): Generator<StoredVector[]> {
    let after = -1;
    for (;;) {
      const page = this.stmts.page.all(after, pageSize) as { key: number; store: IndexStore; row_id: number; user_id: string; vector: Buffer }[];
      if (page.length === 0) return;
      yield page.map((r) => ({ store: r.store, rowId: r.row_id, userId: r.user_id, vector: toFloats(r.vector) }));
      after = page[page.length - 1]!.key;
    }
  }

  /** Data version of the connection: changes when another connection commits. */
  dataVersion(): number {
    return this.stmts.dataVersion.get() as number;
  }
}

function createTables(db: Db): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS ${META} (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      dimension INTEGER NOT NULL,
      embedder_id TEXT NOT NULL,
      generation TEXT NOT NULL,
      pruned_through INTEGER NOT NULL DEFAULT 0
    );
    -- key = row_id * 16 + store slot: one B-tree seek per vector, and a 384-float vector (1.5 kB)
    -- stays on its leaf page (a WITHOUT ROWID table would spill it to overflow pages).
    CREATE TABLE IF NOT EXISTS ${VECTORS} (
      key INTEGER PRIMARY KEY,
      store TEXT NOT NULL,
      row_id INTEGER NOT NULL,
      user_id TEXT NOT NULL,
      vector BLOB NOT NULL
    );
    CREATE TABLE IF NOT EXISTS ${CHANGES} (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      store TEXT NOT NULL,
      row_id INTEGER NOT NULL,
      user_id TEXT NOT NULL
    );`);
}

function prepare(db: Db) {
  const p = (sql: string): Database.Statement => db.prepare(sql);
  return {
    meta: p(`SELECT dimension, embedder_id AS embedderId, generation, pruned_through AS prunedThrough FROM ${META} WHERE id = 1`),
    putMeta: p(`INSERT OR REPLACE INTO ${META}(id, dimension, embedder_id, generation, pruned_through) VALUES (1, ?, ?, ?, 0)`),
    setPruned: p(`UPDATE ${META} SET pruned_through = MAX(pruned_through, ?) WHERE id = 1`),
    get: p(`SELECT user_id, vector FROM ${VECTORS} WHERE key = ?`),
    vectorsOf: p(`SELECT key, vector FROM ${VECTORS} WHERE key IN (SELECT value FROM json_each(?))`).raw(),
    put: p(`INSERT OR REPLACE INTO ${VECTORS}(key, store, row_id, user_id, vector) VALUES (?, ?, ?, ?, ?)`),
    del: p(`DELETE FROM ${VECTORS} WHERE key = ? RETURNING user_id`),
    log: p(`INSERT INTO ${CHANGES}(store, row_id, user_id) VALUES (?, ?, ?)`),
    changes: p(`SELECT seq, store, row_id, user_id FROM ${CHANGES} WHERE seq > ? ORDER BY seq`),
    // sqlite_sequence keeps the highest AUTOINCREMENT value even when the log was pruned.
    lastSeq: p(`SELECT (SELECT seq FROM sqlite_sequence WHERE name = '${CHANGES}') AS seq`),
    prune: p(`DELETE FROM ${CHANGES} WHERE seq <= ?`),
    firstSeq: p(`SELECT MIN(seq) AS seq FROM ${CHANGES}`),
    count: p(`SELECT COUNT(*) AS n FROM ${VECTORS}`),
    // Prepared once: db.pragma() prepares on every call, and this runs before every search.
    dataVersion: p(`PRAGMA data_version`).pluck(),
    page: p(`SELECT key, store, row_id, user_id, vector FROM ${VECTORS} WHERE key > ? ORDER BY key LIMIT ?`),
  };
}

/** The integer key of a row's vector: room for 16 stores, exact for row ids below 2^49. */
function keyOf(store: IndexStore, rowId: number): number {
  const slot = INDEX_STORES.indexOf(store);
  if (slot < 0) throw new VectorIndexError(`Unknown vector store "${String(store)}"`);
  return rowId * 16 + slot;
}

/** Copies a BLOB into an aligned Float32Array (Buffers from SQLite may be unaligned). */
function toFloats(b: Buffer): Float32Array {
  const out = new Float32Array(b.byteLength / 4);
  new Uint8Array(out.buffer).set(b);
  return out;
}
