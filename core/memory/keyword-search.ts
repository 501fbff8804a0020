/**
 * The keyword side of memory search: bm25 over a vector store's own FTS5
 * index (`notes_fts`, ...), one user, live rows only. It lives in SQLite
 * whatever the vector backend, so Qdrant and sqlite-vec rank the same.
 */
import type { Db } from "../store/db.ts";
import type { VectorStore } from "../ports/vector-index.ts";
import { ftsQuery } from "../recall/keyword-query.ts";
import { prepared } from "../store/prepared.ts";

/** Row ids of one store with their bm25 score (higher is better), best first. */
export function keywordSearch(db: Db, store: VectorStore, userId: string, text: string, limit: number): { rowId: number; score: number }[] {
  const match = ftsQuery([text]);
  if (!match) return [];
  const rows = prepared(
    db,
    `SELECT s.id AS rowId, -bm25(${store}_fts) AS score FROM ${store}_fts JOIN ${store} s ON s.id = ${store}_fts.rowid
       WHERE ${store}_fts MATCH ? AND s.user_id = ? AND s.superseded_at IS NULL ORDER BY score DESC, s.id DESC LIMIT ?`,
  ).all(match, userId, limit) as { rowId: number; score: number }[];
  return rows;
}
