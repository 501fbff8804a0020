/**
 * The memory stores' keyword ranking in memory: a keyword index
 * (keyword-index.ts) over the rows of `${store}_user_fts`
 * (memory-keyword-rows.ts), one partition per store and user, answering
 * memory search's keyword side — bm25 with the table's one column, live
 * (not superseded) rows only, best first — as FTS5 would in a database of
 * one user, without walking every user's postings for idf.
 */
import type { VectorStore } from "../../../foundation/ports/vector-index.ts";
import { memoryKeywordKey, type MemoryKeywordRows } from "../../../foundation/store/memory-keyword-rows.ts";
import { KeywordIndex, type KeywordIndexOptions } from "./keyword-index.ts";

/** The keyword side of memory search in memory (undefined: FTS5 must answer). */
export interface MemoryKeywordRanker {
  ranked(store: VectorStore, userId: string, match: string, limit: number): { rowId: number; score: number }[] | undefined;
  /** Resolves once the user's index of the store is built (starts the build). */
  whenStoreReady(store: VectorStore, userId: string): Promise<void>;
}

export class MemoryKeywordIndex extends KeywordIndex implements MemoryKeywordRanker {
  constructor(rows: MemoryKeywordRows, options: KeywordIndexOptions) {
    super(rows, { firstPage: 64, ...options }); // a search reads 50 (the hybrid search's depth)
  }

  /** The user's live rows of the store matching `match`, best first (bm25, higher is better), at most `limit`. */
  ranked(store: VectorStore, userId: string, match: string, limit: number): { rowId: number; score: number }[] | undefined {
    const it = this.rank(memoryKeywordKey(store, userId), match, 1, {});
    if (!it) return undefined;
    if (limit <= 0) return [];
    const out: { rowId: number; score: number }[] = [];
    for (const r of it) if (out.push({ rowId: r.id, score: r.score }) >= limit) break;
    return out;
  }

  /** Resolves once the user's index of the store is built (starts the build; benchmark, tests). */
  whenStoreReady(store: VectorStore, userId: string): Promise<void> {
    return this.whenReady(memoryKeywordKey(store, userId));
  }
}
