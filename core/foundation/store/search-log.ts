import type { Db } from "./db.ts";

/** One logged web search (docs/spec.md §3: every web search with its query). */
export interface SearchLogEntry {
  id: number;
  userId: string;
  query: string;
  provider: string;
  /** Null when the search failed. */
  resultCount: number | null;
  createdAt: string;
}

type Raw = { id: number; user_id: string; query: string; provider: string | null; result_count: number | null; created_at: string };

/** The search log: who searched what, with which provider, how many results, when. */
export class SearchLog {
  constructor(private readonly db: Db) {}

  /** Logs one search; `resultCount` null when the provider failed. */
  add(entry: { userId: string; query: string; provider: string; resultCount: number | null; at: string }): number {
    const info = this.db
      .prepare("INSERT INTO search_log (user_id, query, provider, result_count, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)")
      .run(entry.userId, entry.query, entry.provider, entry.resultCount, entry.at, entry.at);
    return Number(info.lastInsertRowid);
  }

  /** Newest first; one user's searches, or everyone's without `userId`. */
  list(opts: { userId?: string | undefined; limit?: number } = {}): SearchLogEntry[] {
    const rows = opts.userId
      ? this.db.prepare("SELECT * FROM search_log WHERE user_id = ? ORDER BY id DESC LIMIT ?").all(opts.userId, opts.limit ?? 50)
      : this.db.prepare("SELECT * FROM search_log ORDER BY id DESC LIMIT ?").all(opts.limit ?? 50);
    return (rows as Raw[]).map((r) => ({
      id: r.id,
      userId: r.user_id,
      query: r.query,
      provider: r.provider ?? "",
      resultCount: r.result_count,
      createdAt: r.created_at,
    }));
  }
}
