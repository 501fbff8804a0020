/**
 * What a keyword index in memory (core/memory/recall/keyword-index) reads
 * from SQLite, whatever it indexes: the rows of one partition (a user's chat
 * log, a user's notes, ...) a page at a time or by id, each with the
 * columns its FTS5 table holds and what the search filters on, and the
 * change log its triggers fill, read by sequence number. `KeywordChangeLog`
 * is the change-log half, shared by every source (chat-keyword-rows.ts,
 * memory-keyword-rows.ts).
 */
import type { Db } from "./db.ts";
import { prepared } from "./prepared.ts";

/**
 * One row as its FTS5 table holds it — the row id within its partition and
 * both columns (`context` is '' for a one-column table) — with what the
 * search filters on (`present` 0: the row counts in bm25 but is never a hit:
 * no message of that id, a superseded memory).
 */
export interface KeywordRow {
  id: number;
  text: string;
  context: string;
  present: number;
  conversation_id: number | null;
  created_at: string | null;
  redacted: number;
}

/** One logged change: row `id` of partition `key` was written or deleted. */
interface KeywordChange {
  seq: number;
  key: string;
  id: number;
}

/** A source of rows for a keyword index in memory, partitioned by key. */
export interface KeywordRows {
  /** A write left uncommitted on this connection could still be rolled back (its sequence numbers reused). */
  readonly inTransaction: boolean;
  /** SQLite's natural logarithm (FTS5's idf). */
  ln(x: number): number;
  /** The oldest and newest sequence numbers kept (0 when none). */
  window(): { first: number; last: number };
  /** Changes after `seq`, oldest first, at most `limit`. */
  changesAfter(seq: number, limit: number): KeywordChange[];
  /** The partition's next rows after `after` (the last row of the previous page; undefined: from the start), at most `limit`. */
  page(key: string, after: KeywordRow | undefined, limit: number): KeywordRow[];
  /** The partition's rows with these ids (a deleted one is missing). */
  rows(key: string, ids: number[]): KeywordRow[];
}

/** The change-log half of a `KeywordRows`: `table` has an AUTOINCREMENT `seq`; `key` and `id` are SQL over its columns. */
export class KeywordChangeLog {
  constructor(
    protected readonly db: Db,
    private readonly table: string,
    private readonly key: string,
    private readonly id: string,
  ) {}

  get inTransaction(): boolean {
    return this.db.inTransaction;
  }

  /**
   * The natural logarithm as SQLite computes it (the C library's `log`, which
   * FTS5's bm25 uses for idf; V8's Math.log differs in the last bit for about
   * 2.5 % of arguments, enough to swap two nearly equal scores).
   */
  ln(x: number): number {
    return prepared(this.db, `SELECT ln(?)`).pluck().get(x) as number;
  }

  window(): { first: number; last: number } {
    const r = prepared(this.db, `SELECT coalesce(min(seq), 0) AS first, coalesce(max(seq), 0) AS last FROM ${this.table}`).get() as {
      first: number;
      last: number;
    };
    // AUTOINCREMENT: an emptied log still remembers the highest number handed out.
    const handed = prepared(this.db, `SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = '${this.table}'), 0)`).pluck().get() as number;
    return { first: r.first || handed + 1, last: Math.max(r.last, handed) };
  }

  changesAfter(seq: number, limit: number): KeywordChange[] {
    return prepared(this.db, `SELECT seq, ${this.key} AS key, ${this.id} AS id FROM ${this.table} WHERE seq > ? ORDER BY seq LIMIT ?`).all(
      seq,
      limit,
    ) as KeywordChange[];
  }
}
