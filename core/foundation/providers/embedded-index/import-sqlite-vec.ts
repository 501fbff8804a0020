import * as sqliteVec from "sqlite-vec";
import { fromVecRowid } from "../sqlite-vec-index.ts";
import type { Db } from "../../store/db.ts";
import type { StoredVector, VectorTable } from "../../store/vectors/vector-table.ts";
import { SqliteVecTable, VEC_META, VEC_TABLE } from "../../store/vectors/sqlite-vec-table.ts";

/**
 * Carries the vectors of an older Lilo (sqlite-vec's `vec_memory` table) into
 * the embedded index's table once, when the latter is new and the model is
 * the same — so an update needs no re-embedding. Returns how many it copied.
 */
export function importFromSqliteVec(db: Db, table: VectorTable, dimension: number, embedderId: string): number {
  const old = new SqliteVecTable(db);
  if (!old.tableExists(VEC_META) || !old.tableExists(VEC_TABLE)) return 0;
  const meta = old.meta();
  if (!meta || meta.dimension !== dimension || meta.embedderId !== embedderId) return 0;
  sqliteVec.load(db);
  const all: StoredVector[] = [];
  for (const r of old.rows()) {
    const vector = new Float32Array(r.embedding.byteLength / 4);
    new Uint8Array(vector.buffer).set(r.embedding);
    all.push({ ...fromVecRowid(r.rowid), userId: r.userId, vector });
  }
  db.transaction(() => table.put(all)).immediate();
  return all.length;
}
