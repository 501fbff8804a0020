import { VectorIndexError } from "../../errors.ts";
import { REINDEX_ADVICE } from "../index-errors.ts";
import { VECTOR_STORES, type VectorStore } from "../../ports/vector-index.ts";
import type { Db } from "../../store/db.ts";
import { OldVec0Tables } from "../../store/vectors/old-vec0-tables.ts";
import type { TableMeta, VectorTable } from "../../store/vectors/vector-table.ts";

/** The sqlite-vec backend's vec0 rowid: rowId * 16 + store slot. */
const STORE_SLOTS = 16n;

/** Reverses the sqlite-vec backend's rowid encoding (rowId * 16 + store slot). */
export function fromVecRowid(rowid: bigint): { store: VectorStore; rowId: number } {
  const slot = Number(((rowid % STORE_SLOTS) + STORE_SLOTS) % STORE_SLOTS);
  const store = VECTOR_STORES[slot];
  if (!store) throw new VectorIndexError(`vec0 rowid ${rowid} names no known store`);
  return { store, rowId: Number((rowid - BigInt(slot)) / STORE_SLOTS) };
}

/** Whether tables of the removed sqlite-vec backend are still in the file (then takeOverSqliteVec has work to do). */
export function hasSqliteVecTables(db: Db): boolean {
  return new OldVec0Tables(db).present();
}

/**
 * Brings the vector tables into the embedded index's shape at start; call inside
 * an IMMEDIATE transaction (two processes starting at once must not both decide).
 * A database the removed sqlite-vec backend wrote (its vec0 table and model
 * record, no embedded tables yet) has its vectors copied over — same model, so
 * nothing is embedded again — and sqlite-vec's tables dropped in the same
 * transaction: a crash leaves either the old tables or the new ones, never a
 * half. When the embedded index already holds vectors it has been the truth
 * since an earlier Lilo took them over (and kept the old tables), so leftover
 * sqlite-vec tables are only dropped. A different model, or a vec0 table
 * without its record, is refused: `lilo reindex` embeds everything again.
 * Returns the model record and how many vectors were taken over.
 */
export function takeOverSqliteVec(db: Db, table: VectorTable, dimension: number, embedderId: string): { meta: TableMeta; taken: number } {
  const old = new OldVec0Tables(db);
  const own = table.meta();
  if (own && (own.dimension !== dimension || own.embedderId !== embedderId)) throw modelMismatch(own, dimension, embedderId);
  const count = table.count();
  if (!own && count > 0) throw new VectorIndexError(`The vector table has vectors without its model record. ${REINDEX_ADVICE}`);
  if (own && count > 0) {
    old.drop(); // the embedded index is the truth
    return { meta: own, taken: 0 };
  }
  if (!old.present()) return { meta: own ?? table.reset(dimension, embedderId), taken: 0 };
  const oldMeta = old.meta();
  if (!oldMeta || oldMeta.dimension !== dimension || oldMeta.embedderId !== embedderId) {
    if (own) {
      old.drop(); // the (empty) embedded index already serves this model; vectors of another are of no use to it
      return { meta: own, taken: 0 };
    }
    if (!oldMeta) throw new VectorIndexError(`The sqlite-vec tables of an older Lilo have no model record. ${REINDEX_ADVICE}`);
    throw new VectorIndexError(
      `The sqlite-vec tables of an older Lilo hold ${oldMeta.dimension}-dimensional vectors of "${oldMeta.embedderId}", ` +
        `but the embedder is "${embedderId}" with ${dimension} dimensions. ${REINDEX_ADVICE}`,
    );
  }
  // No embedded vectors yet (new tables, or created empty by an earlier Lilo): the old ones are all there is.
  const meta = own ?? table.reset(dimension, embedderId);
  let taken = 0;
  for (const rows of old.chunks(dimension)) {
    table.put(rows.map((r) => ({ ...fromVecRowid(r.rowid), userId: r.userId, vector: r.vector })));
    taken += rows.length;
  }
  old.drop();
  return { meta, taken };
}

/** Drops whatever the sqlite-vec backend left (`lilo reindex` starts the embedded index afresh); call inside a transaction. */
export function dropSqliteVec(db: Db): void {
  new OldVec0Tables(db).drop();
}

/** The error for vectors of another model than the embedder's. */
export function modelMismatch(meta: { dimension: number; embedderId: string }, dimension: number, embedderId: string): VectorIndexError {
  return new VectorIndexError(
    `The vector index holds ${meta.dimension}-dimensional vectors of "${meta.embedderId}", ` +
      `but the embedder is "${embedderId}" with ${dimension} dimensions. ${REINDEX_ADVICE}`,
  );
}
