import * as sqliteVec from "sqlite-vec";
import { VectorIndexError } from "../errors.ts";
import { VECTOR_STORES, type VectorHit, type VectorIndex, type VectorKey, type VectorQuery, type VectorRecord, type VectorStore } from "../ports/vector-index.ts";
import type { Db } from "../store/db.ts";
import { writeTransaction } from "../store/tx.ts";
import { SqliteVecTable, VEC_TABLE } from "../store/vectors/sqlite-vec-table.ts";
import { asIndexError } from "./index-errors.ts";

/** sqlite-vec refuses KNN queries with k above this. */
const MAX_K = 4096;
/** vec0 rowid = rowId * 16 + store index: unique, reversible, room for 16 stores. */
const STORE_SLOTS = 16n;

/** Connections that already have sqlite-vec loaded (load once per connection). */
const loaded = new WeakSet<Db>();

function loadVec(db: Db): void {
  if (loaded.has(db)) return;
  try {
    sqliteVec.load(db);
  } catch (err) {
    throw new VectorIndexError("Cannot load the sqlite-vec extension", { cause: err });
  }
  loaded.add(db);
}

/** Maps a row key to the vec0 rowid (BigInt, as vec0 requires). */
export function toVecRowid(store: VectorStore, rowId: number): bigint {
  const slot = VECTOR_STORES.indexOf(store);
  if (slot < 0) throw new VectorIndexError(`Unknown vector store "${String(store)}"`);
  if (!Number.isSafeInteger(rowId)) throw new VectorIndexError(`Row id ${rowId} is not a safe integer`);
  return BigInt(rowId) * STORE_SLOTS + BigInt(slot);
}

/** Reverses toVecRowid. */
export function fromVecRowid(rowid: bigint): { store: VectorStore; rowId: number } {
  const store = VECTOR_STORES[Number(((rowid % STORE_SLOTS) + STORE_SLOTS) % STORE_SLOTS)];
  if (!store) throw new VectorIndexError(`vec0 rowid ${rowid} names no known store`);
  return { store, rowId: Number((rowid - BigInt(VECTOR_STORES.indexOf(store))) / STORE_SLOTS) };
}

/**
 * The embedded vector index: a sqlite-vec `vec0` table in Lilo's own SQLite
 * file. `user_id` is a partition key and `store` a metadata column, so a KNN
 * query is restricted to one user and one store inside sqlite-vec itself.
 * Distances are cosine; scores are 1 − distance. The index does not own the
 * connection: close() leaves the Db open for the caller to close.
 */
export class SqliteVecIndex implements VectorIndex {
  readonly name = "sqlite-vec";
  private readonly db: Db;
  private readonly table: SqliteVecTable;
  private dimension: number | undefined;

  constructor(db: Db) {
    this.db = db;
    this.table = new SqliteVecTable(db);
  }

  async init(dimension: number, embedderId: string): Promise<void> {
    checkDimension(dimension);
    loadVec(this.db);
    const meta = this.table.meta();
    if (meta) {
      if (meta.dimension !== dimension || meta.embedderId !== embedderId) {
        throw new VectorIndexError(
          `The vector index holds ${meta.dimension}-dimensional vectors of "${meta.embedderId}", ` +
            `but the embedder is "${embedderId}" with ${dimension} dimensions. Run \`lilo reindex\`.`,
        );
      }
      if (!this.table.tableExists(VEC_TABLE)) this.run(() => this.table.createVectors(dimension), "create the vector table");
    } else if (this.table.tableExists(VEC_TABLE)) {
      throw new VectorIndexError(`The vector table ${VEC_TABLE} exists without its model record. Run \`lilo reindex\`.`);
    } else {
      this.create(dimension, embedderId);
    }
    this.dimension = dimension;
  }

  async reset(dimension: number, embedderId: string): Promise<void> {
    checkDimension(dimension);
    loadVec(this.db);
    this.dimension = undefined;
    this.run(
      () =>
        writeTransaction(this.db, () => {
          this.table.drop();
          this.table.create(dimension, embedderId, new Date().toISOString());
        }),
      "reset the vector index",
    );
    this.dimension = dimension;
  }

  async upsert(records: VectorRecord[]): Promise<void> {
    const dim = this.ready();
    if (records.length === 0) return;
    const rows = records.map((r) => {
      if (r.vector.length !== dim) {
        throw new VectorIndexError(`Vector for ${r.store}#${r.rowId} has ${r.vector.length} dimensions, the index expects ${dim}`);
      }
      return { rowid: toVecRowid(r.store, r.rowId), store: r.store, userId: r.userId, blob: toBlob(r.vector) };
    });
    this.run(() => writeTransaction(this.db, () => this.table.put(rows)), "upsert vectors");
  }

  async delete(keys: VectorKey[]): Promise<void> {
    this.ready();
    if (keys.length === 0) return;
    const ids = keys.map((k) => toVecRowid(k.store, k.rowId));
    this.run(() => writeTransaction(this.db, () => this.table.delete(ids)), "delete vectors");
  }

  async search(query: VectorQuery): Promise<VectorHit[]> {
    const dim = this.ready();
    if (query.vector.length !== dim) {
      throw new VectorIndexError(`Query vector has ${query.vector.length} dimensions, the index expects ${dim}`);
    }
    const k = Math.min(Math.floor(query.k), MAX_K);
    if (!(k > 0)) return [];
    const rows = this.run(() => this.table.nearest(toBlob(query.vector), k, query.userId, query.store), "search vectors");
    const hits: VectorHit[] = [];
    for (const r of rows) {
      const score = 1 - r.distance;
      if (query.minScore !== undefined && score < query.minScore) continue;
      hits.push({ ...fromVecRowid(r.rowid), userId: query.userId, score });
    }
    return hits;
  }

  async keys(): Promise<VectorKey[]> {
    this.ready();
    const rows = this.run(() => this.table.keys(), "list vector keys");
    return rows.map((r) => ({ ...fromVecRowid(r.rowid), userId: r.userId }));
  }

  async close(): Promise<void> {
    this.dimension = undefined;
  }

  private ready(): number {
    if (this.dimension === undefined) throw new VectorIndexError("The vector index is not initialised; call init() first");
    return this.dimension;
  }

  private create(dimension: number, embedderId: string): void {
    this.run(() => writeTransaction(this.db, () => this.table.create(dimension, embedderId, new Date().toISOString())), "create the vector index");
  }

  private run<T>(fn: () => T, what: string): T {
    return asIndexError(fn, what);
  }
}

function checkDimension(dimension: number): void {
  if (!Number.isInteger(dimension) || dimension <= 0) throw new VectorIndexError(`Invalid vector dimension ${dimension}`);
}

function toBlob(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}
