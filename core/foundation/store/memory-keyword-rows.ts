/**
 * The SQL of the memory stores' keyword index in memory
 * (core/memory/recall/keyword-index): a user's rows of one store (notes,
 * important, thoughts, diary) as its FTS5 table `${store}_user_fts` holds
 * them (the row's text; the table indexes every row, superseded ones too,
 * so they count in bm25 but are never hits) a page at a time or by id, and
 * the change log `memory_keyword_changes` the triggers fill. A partition is
 * one store of one user: the key is `store:userId` (memoryKeywordKey).
 */
import type { Db } from "./db.ts";
import { prepared } from "./prepared.ts";
import { VECTOR_STORES, type VectorStore } from "../ports/vector-index.ts";
import { KeywordChangeLog, type KeywordRow, type KeywordRows } from "./keyword-rows.ts";

/** The partition key of one store of one user (the change log's SQL builds the same). */
export const memoryKeywordKey = (store: VectorStore, userId: string): string => `${store}:${userId}`;

/** Store and user of a key (store names hold no ':'; a user id may). */
function parseKey(key: string): { store: VectorStore; userId: string } {
  const at = key.indexOf(":");
  const store = key.slice(0, at) as VectorStore;
  if (at < 0 || !VECTOR_STORES.includes(store)) throw new TypeError(`not a memory keyword key: ${key}`);
  return { store, userId: key.slice(at + 1) };
}

/** The store's rows of user @userId (`${where}` picks them): what its FTS5 table holds, and whether each is live. */
const ROWS = (store: VectorStore, where: string) =>
  `SELECT id, text, '' AS context, superseded_at IS NULL AS present, NULL AS conversation_id, created_at, 0 AS redacted
     FROM ${store} WHERE ${where}`;

export class MemoryKeywordRows extends KeywordChangeLog implements KeywordRows {
  constructor(db: Db) {
    super(db, "memory_keyword_changes", "store || ':' || user_id", "row_id");
  }

  /** The next rows in (created_at, id) order — the order of the store's `(user_id, created_at)` index, so a page is a seek. */
  page(key: string, after: KeywordRow | undefined, limit: number): KeywordRow[] {
    const { store, userId } = parseKey(key);
    return prepared(this.db, ROWS(store, `user_id = @userId AND (created_at, id) > (@at, @id) ORDER BY created_at, id LIMIT @limit`)).all({
      userId,
      at: after?.created_at ?? "",
      id: after?.id ?? 0,
      limit,
    }) as KeywordRow[];
  }

  /** The rows with these ids that still belong to the user (a deleted or moved one is missing); by primary key (`+user_id`: not the user's index). */
  rows(key: string, ids: number[]): KeywordRow[] {
    const { store, userId } = parseKey(key);
    return prepared(this.db, ROWS(store, `id IN (SELECT value FROM json_each(@ids)) AND +user_id = @userId`)).all({
      userId,
      ids: JSON.stringify(ids),
    }) as KeywordRow[];
  }
}
