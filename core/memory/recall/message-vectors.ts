/**
 * The meaning side of the chat-log search. Message vectors are derived data
 * kept in SQLite beside the messages (`message_vectors`, one embedder at a
 * time), filled after each reply (a durable job, core/conversation/turn/message-vectors-step.ts)
 * and before a search outside a turn: the user's newest messages without a
 * vector are embedded in one batch. The search is an exact cosine scan in
 * memory over one user's vectors (cached, extended as messages come in):
 * a few milliseconds for thousands of messages, no second index to keep in
 * step with the vector backend.
 */
import type { Db } from "../../foundation/store/db.ts";
import { MessageVectorsTable } from "../../foundation/store/message-vectors.ts";
import type { Embedder } from "../../foundation/ports/embedder.ts";
import { LiloError } from "../../foundation/errors.ts";

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

  private readonly table: MessageVectorsTable;

  constructor(
    db: Db,
    private readonly embedder: Embedder,
  ) {
    this.table = new MessageVectorsTable(db);
  }

  /** Embeds up to CATCH_UP_BATCH of the user's newest messages that have no vector of this embedder yet. */
  async catchUp(userId: string): Promise<number> {
    const after = this.complete.get(userId);
    if (after === undefined) this.table.dropOtherEmbedders(userId, this.embedder.id);
    // Once complete, only newer messages can lack a vector (an edited old message waits for the next start);
    // a message still waiting for its turn is not embedded yet, so "complete" stops below it.
    const missing = this.table.missing(userId, after ?? 0, CATCH_UP_BATCH);
    if (missing.length < CATCH_UP_BATCH) this.complete.set(userId, Math.max(after ?? 0, this.table.settledUpTo(userId)));
    if (!missing.length) return 0;
    const vectors = await this.embedder.embed(missing.map((m) => m.text));
    if (vectors.length !== missing.length) throw new LiloError("embedder", `The embedder returned ${vectors.length} vectors for ${missing.length} messages`);
    this.table.put(
      userId,
      this.embedder.id,
      missing.map((m, i) => ({ id: m.id, vector: vectors[i]! })),
    );
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

  /** Drops what the cache holds of a user (a forget redacted messages, whose vectors SQLite dropped by trigger): the next search reads SQLite again. */
  invalidate(userId: string): void {
    this.cache.delete(userId);
  }

  /** The user's vectors, read once and then extended by newer rows only. */
  private load(userId: string): UserVectors {
    const u = this.cache.get(userId) ?? { ids: [], conversations: [], times: [], vectors: [], lastId: 0 };
    for (const r of this.table.since(userId, this.embedder.id, u.lastId)) {
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
