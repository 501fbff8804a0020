/**
 * bm25 over a vector store's own FTS5 index (`notes_fts`, ...): one user,
 * live rows only. core/memory/keyword-search.ts builds the match.
 */
import type { Db } from "./db.ts";
import type { VectorStore } from "../ports/vector-index.ts";
import { prepared } from "./prepared.ts";

/** Row ids of one store matching an FTS5 query, with their bm25 score (higher is better), best first. */
export function keywordRows(db: Db, store: VectorStore, userId: string, match: string, limit: number): { rowId: number; score: number }[] {
  return prepared(
    db,
    `SELECT s.id AS rowId, -bm25(${store}_fts) AS score FROM ${store}_fts JOIN ${store} s ON s.id = ${store}_fts.rowid
       WHERE ${store}_fts MATCH ? AND s.user_id = ? AND s.superseded_at IS NULL ORDER BY score DESC, s.id DESC LIMIT ?`,
  ).all(match, userId, limit) as { rowId: number; score: number }[];
}
