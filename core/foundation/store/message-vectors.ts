/**
 * The SQLite side of the chat-message vectors (core/memory/recall/message-vectors.ts):
 * the vectors themselves live in the vector index (store "messages");
 * `message_vectors` records which messages have one and of which embedder,
 * so finding the messages still to embed is one indexed query. Vectors an
 * older Lilo kept here wait in `message_vectors_legacy` until the index
 * takes them over. Statements are prepared once: catch-up and the search's
 * look-ups run on every turn, and each seeks in `messages_user_id` (user, id)
 * or the primary key, so its cost does not grow with the user's log.
 */
import type { Db } from "./db.ts";
import { prepared } from "./prepared.ts";

/** Where and when a message was written: what the search's filters look at. */
export interface MessagePlace {
  conversationId: number;
  createdAt: string;
}

export class MessageVectorsTable {
  constructor(private readonly db: Db) {}

  /** Forgets the user's marks made by any other embedder (their messages are embedded again). */
  dropOtherEmbedders(userId: string, embedderId: string): void {
    prepared(this.db, `DELETE FROM message_vectors WHERE user_id = ? AND embedder <> ?`).run(userId, embedderId);
  }

  /**
   * Up to `limit` of the user's messages with `afterId < id < beforeId` without a
   * vector, newest first. A user message still waiting for its turn is left
   * out: its text may yet change (a voice note's placeholder becomes its transcript).
   */
  missing(userId: string, afterId: number, beforeId: number, limit: number): { id: number; text: string }[] {
    return prepared(
      this.db,
      `SELECT m.id, m.text FROM messages m LEFT JOIN message_vectors v ON v.message_id = m.id
         WHERE m.user_id = ? AND m.id > ? AND m.id < ? AND v.message_id IS NULL AND m.reply_state <> 'pending' ORDER BY m.id DESC LIMIT ?`,
    ).all(userId, afterId, beforeId, limit) as { id: number; text: string }[];
  }

  /** The id below the user's oldest message still waiting for its turn, or of the newest message (0 without any). */
  settledUpTo(userId: string): number {
    const r = prepared(
      this.db,
      // `+user_id`: the pending messages (few) through messages_unfinished, not the user's whole log.
      `SELECT coalesce((SELECT min(id) - 1 FROM messages WHERE reply_state = 'pending' AND +user_id = ?), (SELECT max(id) FROM messages WHERE user_id = ?), 0) AS id`,
    ).get(userId, userId) as { id: number };
    return r.id;
  }

  /** Records that these messages of the user now have a vector of this embedder in the index. */
  mark(userId: string, embedderId: string, ids: number[]): void {
    const insert = prepared(this.db, `INSERT OR REPLACE INTO message_vectors (message_id, user_id, embedder) SELECT id, ?, ? FROM messages WHERE id = ?`);
    this.db.transaction(() => {
      for (const id of ids) insert.run(userId, embedderId, id);
    })();
  }

  /** Forgets every mark (the index was emptied: `lilo reindex`). */
  unmarkAll(): void {
    prepared(this.db, `DELETE FROM message_vectors`).run();
  }

  /** Conversation and time of the user's messages among `ids` (others', deleted and forgotten (redacted) ones are left out). */
  places(userId: string, ids: number[]): Map<number, MessagePlace> {
    const rows = prepared(
      this.db,
      // `+user_id`: each id through the primary key alone, not messages_user_id and then the row: one B-tree walk per id instead of two.
      `SELECT id, conversation_id AS conversationId, created_at AS createdAt FROM messages
         WHERE id IN (SELECT value FROM json_each(?)) AND +user_id = ? AND redacted_at IS NULL`,
    ).all(JSON.stringify(ids), userId) as (MessagePlace & { id: number })[];
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** Ids of the messages of one conversation. */
  conversationIds(conversationId: number): number[] {
    return prepared(this.db, `SELECT id FROM messages WHERE conversation_id = ?`).pluck().all(conversationId) as number[];
  }

  /** Ids of the user's messages written in [from, to) (either bound open). */
  idsBetween(userId: string, from: string | undefined, to: string | undefined): number[] {
    return prepared(this.db, `SELECT id FROM messages WHERE user_id = ? AND created_at >= ? AND created_at < ?`)
      .pluck()
      .all(userId, from ?? "", to ?? "\uffff") as number[];
  }

  /** Every message of the user with its place (the last resort of a narrowly filtered search). */
  allPlaces(userId: string): (MessagePlace & { id: number })[] {
    return prepared(
      this.db,
      `SELECT id, conversation_id AS conversationId, created_at AS createdAt FROM messages WHERE user_id = ? AND redacted_at IS NULL`,
    ).all(userId) as (MessagePlace & { id: number })[];
  }

  /** Every user with chat messages. */
  users(): string[] {
    return prepared(this.db, `SELECT DISTINCT user_id FROM messages`).pluck().all() as string[];
  }

  /** Up to `limit` of the user's vectors an older Lilo kept in SQLite (made by `embedderId`), as floats. */
  legacy(userId: string, embedderId: string, limit: number): { id: number; vector: Float32Array }[] {
    if (!this.hasLegacyTable()) return [];
    const rows = prepared(this.db, `SELECT message_id AS id, vector FROM message_vectors_legacy WHERE user_id = ? AND embedder = ? LIMIT ?`).all(
      userId,
      embedderId,
      limit,
    ) as { id: number; vector: Buffer }[];
    return rows.map((r) => {
      const v = new Float32Array(r.vector.byteLength / 4);
      new Uint8Array(v.buffer).set(r.vector);
      return { id: r.id, vector: v };
    });
  }

  /** Drops legacy vectors: these ids, or (without ids) all of the user's other embedders'. */
  dropLegacy(userId: string, embedderId: string, ids?: number[]): void {
    if (!this.hasLegacyTable()) return;
    if (ids) prepared(this.db, `DELETE FROM message_vectors_legacy WHERE message_id IN (SELECT value FROM json_each(?))`).run(JSON.stringify(ids));
    else prepared(this.db, `DELETE FROM message_vectors_legacy WHERE user_id = ? AND embedder <> ?`).run(userId, embedderId);
  }

  private hasLegacyTable(): boolean {
    return prepared(this.db, `SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'message_vectors_legacy'`).get() !== undefined;
  }
}
