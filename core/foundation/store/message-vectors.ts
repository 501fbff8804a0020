/**
 * The `message_vectors` table: one vector per chat message and embedder,
 * derived data beside the messages (core/memory/recall/message-vectors.ts fills and
 * searches it). Statements are prepared once: catch-up and loading run on
 * every turn.
 */
import type { Db } from "./db.ts";
import { prepared } from "./prepared.ts";

/** A stored message vector with what the search filters on. */
export interface StoredMessageVector {
  id: number;
  conv: number;
  at: string;
  vector: Buffer;
}

export class MessageVectorsTable {
  constructor(private readonly db: Db) {}

  /** Drops the user's vectors made by any other embedder. */
  dropOtherEmbedders(userId: string, embedderId: string): void {
    prepared(this.db, `DELETE FROM message_vectors WHERE user_id = ? AND embedder <> ?`).run(userId, embedderId);
  }

  /**
   * Up to `limit` of the user's messages newer than `afterId` without a
   * vector, newest first. A user message still waiting for its turn is left
   * out: its text may yet change (a voice note's placeholder becomes its transcript).
   */
  missing(userId: string, afterId: number, limit: number): { id: number; text: string }[] {
    return prepared(
      this.db,
      `SELECT m.id, m.text FROM messages m LEFT JOIN message_vectors v ON v.message_id = m.id
         WHERE m.user_id = ? AND m.id > ? AND v.message_id IS NULL AND m.reply_state <> 'pending' ORDER BY m.id DESC LIMIT ?`,
    ).all(userId, afterId, limit) as { id: number; text: string }[];
  }

  /** The id below the user's oldest message still waiting for its turn, or of the newest message (0 without any). */
  settledUpTo(userId: string): number {
    const r = prepared(
      this.db,
      `SELECT coalesce((SELECT min(id) - 1 FROM messages WHERE user_id = ? AND reply_state = 'pending'), (SELECT max(id) FROM messages WHERE user_id = ?), 0) AS id`,
    ).get(userId, userId) as { id: number };
    return r.id;
  }

  /** Stores vectors of one user and embedder in one transaction. */
  put(userId: string, embedderId: string, rows: { id: number; vector: Float32Array }[]): void {
    const insert = prepared(this.db, `INSERT OR REPLACE INTO message_vectors (message_id, user_id, embedder, vector) VALUES (?, ?, ?, ?)`);
    this.db.transaction(() => {
      for (const { id, vector } of rows) insert.run(id, userId, embedderId, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength));
    })();
  }

  /** The user's vectors of this embedder with message ids above `afterId`, in id order. */
  since(userId: string, embedderId: string, afterId: number): StoredMessageVector[] {
    return prepared(
      this.db,
      `SELECT v.message_id AS id, m.conversation_id AS conv, m.created_at AS at, v.vector AS vector FROM message_vectors v
         JOIN messages m ON m.id = v.message_id WHERE v.user_id = ? AND v.embedder = ? AND v.message_id > ? ORDER BY v.message_id`,
    ).all(userId, embedderId, afterId) as StoredMessageVector[];
  }
}
