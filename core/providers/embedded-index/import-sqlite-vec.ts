import * as sqliteVec from "sqlite-vec";
import { fromVecRowid } from "../sqlite-vec-index.ts";
import type { Db } from "../../store/db.ts";
import type { StoredVector, VectorTable } from "./vector-table.ts";

/**
 * Carries the vectors of an older Lilo (sqlite-vec's `vec_memory` table) into
 * the embedded index's table once, when the latter is new and the model is
 * the same — so an update needs no re-embedding. Returns how many it copied.
 */
export function importFromSqliteVec(db: Db, table: VectorTable, dimension: number, embedderId: string): number {
  const has = (name: string) => db.prepare(`SELECT 1 FROM sqlite_master WHERE name = ?`).get(name) !== undefined;
  if (!has("vec_memory_meta") || !has("vec_memory")) return 0;
  const meta = db.prepare(`SELECT dimension, embedder_id AS embedderId FROM vec_memory_meta WHERE id = 1`).get() as { dimension: number; embedderId: string } | undefined;
  if (!meta || meta.dimension !== dimension || meta.embedderId !== embedderId) return 0;
  sqliteVec.load(db);
  const rows = db.prepare(`SELECT rowid, user_id AS userId, embedding FROM vec_memory`).safeIntegers(true).iterate() as IterableIterator<{ rowid: bigint; userId: string; embedding: Buffer }>;
  const all: StoredVector[] = [];
  for (const r of rows) {
    const vector = new Float32Array(r.embedding.byteLength / 4);
    new Uint8Array(vector.buffer).set(r.embedding);
    all.push({ ...fromVecRowid(r.rowid), userId: r.userId, vector });
  }
  db.transaction(() => table.put(all)).immediate();
  return all.length;
}
