/**
 * bm25 over a vector store's keyword index (`notes_user_fts`, ...): one
 * user, live rows only. The user's rowid range goes into the FTS5 query
 * (user-fts.ts), so the search reads that user's postings only.
 * core/memory/keyword-search.ts builds the match.
 */
import type { Db } from "./db.ts";
import type { VectorStore } from "../ports/vector-index.ts";
import { prepared } from "./prepared.ts";
import { inUserRange, userBase } from "./user-fts.ts";

/** Row ids of one store matching an FTS5 query, with their bm25 score (higher is better), best first. */
export function keywordRows(db: Db, store: VectorStore, userId: string, match: string, limit: number): { rowId: number; score: number }[] {
  const fts = `${store}_user_fts`;
  return prepared(
    db,
    `SELECT s.id AS rowId, -bm25(${fts}) AS score FROM ${fts} JOIN ${store} s ON s.id = ${fts}.rowid - ${userBase("@userId")}
       WHERE ${fts} MATCH @match AND ${inUserRange(fts, "@userId")} AND s.user_id = @userId AND s.superseded_at IS NULL
       ORDER BY score DESC, s.id DESC LIMIT @limit`,
  ).all({ match, userId, limit }) as { rowId: number; score: number }[];
}
