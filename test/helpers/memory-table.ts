import type { Db } from "../../core/foundation/store/db.ts";
import type { VectorStore } from "../../core/internal.ts";

/** One memory row as SQLite holds it (the columns tests look at; `SELECT *` brings the rest). */
export interface MemoryRow {
  id: number;
  text: string;
  superseded_at: string | null;
}

/**
 * One memory store's table (notes, important, thoughts, diary) on a
 * connection of the test's own: for states no use case makes (a row whose
 * vector was never written, a superseded row) and columns no use case shows.
 * Plain SQL, so the memory service under test is not its own witness.
 */
export function memoryTable(sql: Db, store: VectorStore) {
  return {
    get: (id: number) => sql.prepare(`SELECT * FROM ${store} WHERE id = ?`).get(id) as MemoryRow | undefined,
    /** Ids of the user's live rows, newest first (as `memory.list` orders them). */
    liveIds: (userId: string) =>
      (
        sql.prepare(`SELECT id FROM ${store} WHERE user_id = ? AND superseded_at IS NULL ORDER BY created_at DESC, id DESC`).all(userId) as { id: number }[]
      ).map((r) => r.id),
    /** A row only, no vector: what an add killed before its vector leaves. */
    insert: (userId: string, text: string, at: string) =>
      Number(sql.prepare(`INSERT INTO ${store} (user_id, text, created_at, updated_at) VALUES (?, ?, ?, ?)`).run(userId, text, at, at).lastInsertRowid),
    delete: (id: number) => void sql.prepare(`DELETE FROM ${store} WHERE id = ?`).run(id),
    /** Marks a row superseded the way a correction does (its vector is not touched). */
    supersede: (id: number, at: string) => void sql.prepare(`UPDATE ${store} SET superseded_at = ?, updated_at = ? WHERE id = ?`).run(at, at, id),
  };
}
