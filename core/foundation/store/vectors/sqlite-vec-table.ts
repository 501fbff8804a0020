/**
 * The SQL of the sqlite-vec index (core/foundation/providers/sqlite-vec-index.ts): a
 * `vec0` table partitioned by user and store, and a one-row model record.
 * The tables belong to the index, not to a schema migration: `lilo reindex`
 * drops and recreates them. sqlite-vec must be loaded on the connection
 * before the vec0 table is touched.
 */
import type { Db } from "../db.ts";

export const VEC_TABLE = "vec_memory";
export const VEC_META = "vec_memory_meta";

/** The model record of the vec0 table. */
export interface VecMeta {
  dimension: number;
  embedderId: string;
}

/** One stored vec0 row: the encoded rowid, its user, the float32 BLOB. */
export interface VecRow {
  rowid: bigint;
  userId: string;
  embedding: Buffer;
}

export class SqliteVecTable {
  constructor(private readonly db: Db) {}

  tableExists(name: typeof VEC_TABLE | typeof VEC_META): boolean {
    return this.db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(name) !== undefined;
  }

  /** The model record, or undefined without one. */
  meta(): VecMeta | undefined {
    if (!this.tableExists(VEC_META)) return undefined;
    return this.db.prepare(`SELECT dimension, embedder_id AS embedderId FROM ${VEC_META} WHERE id = 1`).get() as VecMeta | undefined;
  }

  /** Creates the vec0 table (when missing) for vectors of `dimension`. */
  createVectors(dimension: number): void {
    this.db.exec(createSql(dimension));
  }

  /** Creates both tables and writes the model record; call inside a transaction. */
  create(dimension: number, embedderId: string, now: string): void {
    this.db.exec(
      `CREATE TABLE ${VEC_META} (
         id INTEGER PRIMARY KEY CHECK (id = 1),
         dimension INTEGER NOT NULL,
         embedder_id TEXT NOT NULL,
         created_at TEXT NOT NULL
       );`,
    );
    this.db.exec(createSql(dimension));
    this.db.prepare(`INSERT INTO ${VEC_META}(id, dimension, embedder_id, created_at) VALUES (1, ?, ?, ?)`).run(dimension, embedderId, now);
  }

  /** Drops both tables; call inside a transaction. */
  drop(): void {
    this.db.exec(`DROP TABLE IF EXISTS ${VEC_TABLE}; DROP TABLE IF EXISTS ${VEC_META};`);
  }

  /** Replaces vectors by rowid; call inside a transaction. */
  put(rows: { rowid: bigint; userId: string; store: string; blob: Buffer }[]): void {
    const del = this.db.prepare(`DELETE FROM ${VEC_TABLE} WHERE rowid = ?`);
    const ins = this.db.prepare(`INSERT INTO ${VEC_TABLE}(rowid, user_id, store, embedding) VALUES (?, ?, ?, ?)`);
    for (const r of rows) {
      del.run(r.rowid);
      ins.run(r.rowid, r.userId, r.store, r.blob);
    }
  }

  /** Deletes vectors by rowid; call inside a transaction. */
  delete(rowids: bigint[]): void {
    const del = this.db.prepare(`DELETE FROM ${VEC_TABLE} WHERE rowid = ?`);
    rowids.forEach((id) => del.run(id));
  }

  /** The `k` nearest vectors of one user and store, nearest first (cosine distance). */
  nearest(blob: Buffer, k: number, userId: string, store: string): { rowid: bigint; distance: number }[] {
    return this.db
      .prepare(
        `SELECT rowid, distance FROM ${VEC_TABLE}
             WHERE embedding MATCH ? AND k = ? AND user_id = ? AND store = ?
             ORDER BY distance`,
      )
      .safeIntegers(true)
      .all(blob, BigInt(k), userId, store) as { rowid: bigint; distance: number }[];
  }

  /** Every stored rowid with its user, in rowid order. */
  keys(): { rowid: bigint; userId: string }[] {
    return this.db.prepare(`SELECT rowid, user_id AS userId FROM ${VEC_TABLE} ORDER BY rowid`).safeIntegers(true).all() as { rowid: bigint; userId: string }[];
  }

  /** Every stored vector, one at a time (the embedded index's one-time import). */
  rows(): IterableIterator<VecRow> {
    return this.db.prepare(`SELECT rowid, user_id AS userId, embedding FROM ${VEC_TABLE}`).safeIntegers(true).iterate() as IterableIterator<VecRow>;
  }
}

// Both user and store are partition keys: a search scans only that user's
// vectors of that store, not every vector of the user (measured by `npm run bench`).
function createSql(dimension: number): string {
  return `CREATE VIRTUAL TABLE IF NOT EXISTS ${VEC_TABLE} USING vec0(
    user_id TEXT PARTITION KEY,
    store TEXT PARTITION KEY,
    embedding FLOAT[${dimension}] DISTANCE_METRIC=cosine
  );`;
}
