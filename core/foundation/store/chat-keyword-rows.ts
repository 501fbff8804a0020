/**
 * The SQL of the chat log's keyword index in memory
 * (core/memory/recall/keyword-index): a user's rows of
 * `messages_ctx_user_fts` (message text and neighbours' context, exactly as
 * FTS5 holds them, with the message's conversation, time and whether it was
 * forgotten) a page at a time or by id, and the change log
 * `chat_keyword_changes` the triggers fill, read by sequence number.
 */
import type { Db } from "./db.ts";
import { prepared } from "./prepared.ts";
import { USER_SPAN, userBase } from "./user-fts.ts";

/**
 * A row of the chat log's FTS table — the message id (within its user's
 * range) and both columns — with what the search filters on from the
 * user's message of that id (`present` 0: none; the row still counts in bm25).
 */
export interface ChatKeywordRow {
  id: number;
  text: string;
  context: string;
  present: number;
  conversation_id: number | null;
  created_at: string | null;
  redacted: number;
}

/** FTS rows of the user's range joined with the user's messages (`${where}` picks the rows). */
const ROWS = (where: string) =>
  `SELECT f.rowid - ${userBase("@userId")} AS id, f.text, f.context, m.id IS NOT NULL AS present, m.conversation_id, m.created_at,
          m.redacted_at IS NOT NULL AS redacted
     FROM messages_ctx_user_fts f LEFT JOIN messages m ON m.id = f.rowid - ${userBase("@userId")} AND m.user_id = @userId
     WHERE ${where}`;

/** One logged change: this user's row for this message was written or deleted. */
export interface ChatKeywordChange {
  seq: number;
  user_id: string;
  message_id: number;
}

export class ChatKeywordRows {
  constructor(private readonly db: Db) {}

  /** A write left uncommitted on this connection could still be rolled back (its sequence numbers reused). */
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

  /** The oldest and newest sequence numbers kept (0 when none). */
  window(): { first: number; last: number } {
    const r = prepared(this.db, `SELECT coalesce(min(seq), 0) AS first, coalesce(max(seq), 0) AS last FROM chat_keyword_changes`).get() as {
      first: number;
      last: number;
    };
    // AUTOINCREMENT: an emptied log still remembers the highest number handed out.
    const handed = prepared(this.db, `SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'chat_keyword_changes'), 0)`).pluck().get() as number;
    return { first: r.first || handed + 1, last: Math.max(r.last, handed) };
  }

  /** Changes after `seq`, oldest first, at most `limit`. */
  changesAfter(seq: number, limit: number): ChatKeywordChange[] {
    return prepared(this.db, `SELECT seq, user_id, message_id FROM chat_keyword_changes WHERE seq > ? ORDER BY seq LIMIT ?`).all(
      seq,
      limit,
    ) as ChatKeywordChange[];
  }

  /** The user's rows with an id above `afterId`, by id, at most `limit`. */
  page(userId: string, afterId: number, limit: number): ChatKeywordRow[] {
    return prepared(
      this.db,
      ROWS(`f.rowid BETWEEN ${userBase("@userId")} + @after + 1 AND ${userBase("@userId")} + ${USER_SPAN - 1} ORDER BY f.rowid LIMIT @limit`),
    ).all({ userId, after: afterId, limit }) as ChatKeywordRow[];
  }

  /** The user's rows for these message ids (a deleted one is missing). */
  rows(userId: string, ids: number[]): ChatKeywordRow[] {
    return prepared(this.db, ROWS(`f.rowid IN (SELECT ${userBase("@userId")} + value FROM json_each(@ids))`)).all({
      userId,
      ids: JSON.stringify(ids),
    }) as ChatKeywordRow[];
  }
}
