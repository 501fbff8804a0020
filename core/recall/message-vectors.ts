/**
 * The meaning side of the chat-log search. Message vectors are derived data
 * kept in SQLite beside the messages (`message_vectors`, one embedder at a
 * time), filled lazily: before a search, the user's newest messages without
 * a vector are embedded in one batch. The search is an exact cosine scan in
 * memory over one user's vectors (cached, extended as messages come in):
 * a few milliseconds for thousands of messages, no second index to keep in
 * step with the vector backend.
 */
import type { Db } from "../store/db.ts";
import type { Embedder } from "../ports/embedder.ts";
import { LiloError } from "../errors.ts";

/** Messages embedded per catch-up call; an old log fills over the next turns instead of stalling one. */
const CATCH_UP_BATCH = 64;

interface UserVectors {
  ids: number[];
  conversations: number[];
  times: string[];
  vectors: Float32Array[];
  lastId: number;
}

/** One hit of the meaning side: message id, its conversation and time, cosine. */
export interface MessageVectorHit {
  id: number;
  conversationId: number;
  createdAt: string;
  score: number;
}

export class MessageVectors {
  private readonly cache = new Map<string, UserVectors>();
  /** Users whose every message up to this id has a vector: later catch-ups look only at newer ids. */
  private readonly complete = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly embedder: Embedder,
  ) {}

  /** Embeds up to CATCH_UP_BATCH of the user's newest messages that have no vector of this embedder yet. */
  async catchUp(userId: string): Promise<number> {
    const after = this.complete.get(userId);
    if (after === undefined) this.db.prepare(`DELETE FROM message_vectors WHERE user_id = ? AND embedder <> ?`).run(userId, this.embedder.id);
    // Once complete, only newer messages can lack a vector (an edited old message waits for the next start).
    const missing = this.db
      .prepare(
        `SELECT m.id, m.text FROM messages m LEFT JOIN message_vectors v ON v.message_id = m.id
         WHERE m.user_id = ? AND m.id > ? AND v.message_id IS NULL ORDER BY m.id DESC LIMIT ?`,
      )
      .all(userId, after ?? 0, CATCH_UP_BATCH) as { id: number; text: string }[];
    if (missing.length < CATCH_UP_BATCH) this.complete.set(userId, Math.max(after ?? 0, missing[0]?.id ?? 0, this.newestId(userId)));
    if (!missing.length) return 0;
    const vectors = await this.embedder.embed(missing.map((m) => m.text));
    if (vectors.length !== missing.length) throw new LiloError("embedder", `The embedder returned ${vectors.length} vectors for ${missing.length} messages`);
    const insert = this.db.prepare(`INSERT OR REPLACE INTO message_vectors (message_id, user_id, embedder, vector) VALUES (?, ?, ?, ?)`);
    this.db.transaction(() => {
      missing.forEach((m, i) => insert.run(m.id, userId, this.embedder.id, Buffer.from(vectors[i]!.buffer, vectors[i]!.byteOffset, vectors[i]!.byteLength)));
    })();
    // The cache extends itself with newer ids; only an older id filled in (an old log catching up) needs a reload.
    const cachedUpTo = this.cache.get(userId)?.lastId ?? 0;
    if (missing.some((m) => m.id <= cachedUpTo)) this.cache.delete(userId);
    return missing.length;
  }

  /** Embeds every message of the user that lacks a vector (after an import); returns how many. */
  async catchUpAll(userId: string): Promise<number> {
    let total = 0;
    for (let n = await this.catchUp(userId); n > 0; n = await this.catchUp(userId)) total += n;
    return total;
  }

  private newestId(userId: string): number {
    return (this.db.prepare(`SELECT max(id) AS id FROM messages WHERE user_id = ?`).get(userId) as { id: number | null }).id ?? 0;
  }

  /** The `k` messages closest in meaning, best first, passing `keep` (time filters, the running conversation). */
  search(userId: string, vector: Float32Array, k: number, keep: (h: { conversationId: number; createdAt: string }) => boolean): MessageVectorHit[] {
    const u = this.load(userId);
    const scored: MessageVectorHit[] = [];
    for (let i = 0; i < u.ids.length; i++) {
      const hit = { conversationId: u.conversations[i]!, createdAt: u.times[i]! };
      if (!keep(hit)) continue;
      const v = u.vectors[i]!;
      let s = 0;
      for (let d = 0; d < v.length; d++) s += v[d]! * vector[d]!;
      scored.push({ id: u.ids[i]!, ...hit, score: s });
    }
    return scored.sort((a, b) => b.score - a.score).slice(0, k);
  }

  /** The user's vectors, read once and then extended by newer rows only. */
  private load(userId: string): UserVectors {
    const u = this.cache.get(userId) ?? { ids: [], conversations: [], times: [], vectors: [], lastId: 0 };
    const rows = this.db
      .prepare(
        `SELECT v.message_id AS id, m.conversation_id AS conv, m.created_at AS at, v.vector AS vector FROM message_vectors v
         JOIN messages m ON m.id = v.message_id WHERE v.user_id = ? AND v.embedder = ? AND v.message_id > ? ORDER BY v.message_id`,
      )
      .all(userId, this.embedder.id, u.lastId) as { id: number; conv: number; at: string; vector: Buffer }[];
    for (const r of rows) {
      u.ids.push(r.id);
      u.conversations.push(r.conv);
      u.times.push(r.at);
      u.vectors.push(new Float32Array(r.vector.buffer.slice(r.vector.byteOffset, r.vector.byteOffset + r.vector.byteLength)));
      u.lastId = r.id;
    }
    this.cache.set(userId, u);
    return u;
  }
}
