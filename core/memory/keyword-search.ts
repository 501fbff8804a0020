/**
 * The keyword side of memory search: bm25 over a vector store's own FTS5
 * index (`notes_user_fts`, ...), one user, live rows only. It lives in SQLite
 * whatever the vector backend, so Qdrant and the embedded index rank the
 * same; the keyword index in memory (recall/keyword-index), when given and
 * ready, ranks as FTS5 does without walking every user's postings.
 */
import type { Db } from "../foundation/store/db.ts";
import type { VectorStore } from "../foundation/ports/vector-index.ts";
import { ftsQuery } from "./recall/keyword-query.ts";
import { keywordRows } from "../foundation/store/keyword-index.ts";
import type { MemoryKeywordRanker } from "./recall/keyword-index/memory-keyword-index.ts";

/** Row ids of one store with their bm25 score (higher is better), best first. */
export function keywordSearch(
  db: Db,
  store: VectorStore,
  userId: string,
  text: string,
  limit: number,
  ranker?: MemoryKeywordRanker,
): { rowId: number; score: number }[] {
  const match = ftsQuery([text]);
  if (!match) return [];
  return ranker?.ranked(store, userId, match, limit) ?? keywordRows(db, store, userId, match, limit);
}
