/**
 * The SQL of the chat log's keyword index in memory
 * (core/memory/recall/keyword-index): a user's rows of
 * `messages_ctx_user_fts` (message text and neighbours' context, exactly as
 * FTS5 holds them, with the message's conversation, time and whether it was
 * forgotten) a page at a time or by id, and the change log
 * `chat_keyword_changes` the triggers fill, read by sequence number.
 * Partitions are users (the key is the user id).
 */
import type { Db } from "./db.ts";
import { prepared } from "./prepared.ts";
import { USER_SPAN, userBase } from "./user-fts.ts";
import { KeywordChangeLog, type KeywordRow, type KeywordRows } from "./keyword-rows.ts";

/** FTS rows of the user's range joined with the user's messages (`${where}` picks the rows). */
const ROWS = (where: string) =>
  `SELECT f.rowid - ${userBase("@userId")} AS id, f.text, f.context, m.id IS NOT NULL AS present, m.conversation_id, m.created_at,
          m.redacted_at IS NOT NULL AS redacted
     FROM messages_ctx_user_fts f LEFT JOIN messages m ON m.id = f.rowid - ${userBase("@userId")} AND m.user_id = @userId
     WHERE ${where}`;

export class ChatKeywordRows extends KeywordChangeLog implements KeywordRows {
  constructor(db: Db) {
    super(db, "chat_keyword_changes", "user_id", "message_id");
  }

  /** The user's rows with an id above the last one read, by id, at most `limit`. */
  page(userId: string, after: KeywordRow | undefined, limit: number): KeywordRow[] {
    return prepared(
      this.db,
      ROWS(`f.rowid BETWEEN ${userBase("@userId")} + @after + 1 AND ${userBase("@userId")} + ${USER_SPAN - 1} ORDER BY f.rowid LIMIT @limit`),
    ).all({ userId, after: after?.id ?? 0, limit }) as KeywordRow[];
  }

  /** The user's rows for these message ids (a deleted one is missing). */
  rows(userId: string, ids: number[]): KeywordRow[] {
    return prepared(this.db, ROWS(`f.rowid IN (SELECT ${userBase("@userId")} + value FROM json_each(@ids))`)).all({
      userId,
      ids: JSON.stringify(ids),
    }) as KeywordRow[];
  }
}
