/**
 * The meaning side of the chat-log search. Message vectors live in the same
 * vector index as the notes (store "messages": with the embedded index an
 * int8 copy per user scanned exactly — or through a graph when large — and
 * rescored from the floats in SQLite, kept crash-safe by the change log and
 * snapshot; with Qdrant in its collection). `message_vectors` in SQLite
 * records which messages have one. They are filled after each reply (a
 * durable job, core/conversation/turn/message-vectors-step.ts) and before a
 * search outside a turn: the user's newest messages without a vector are
 * embedded in one batch. A search costs what the index search costs, not a
 * pass over every message the user ever wrote.
 */
import type { Db } from "../../foundation/store/db.ts";
import { MessageVectorsTable, type MessagePlace } from "../../foundation/store/message-vectors.ts";
import type { Embedder } from "../../foundation/ports/embedder.ts";
import type { VectorIndex } from "../../foundation/ports/vector-index.ts";
import { LiloError } from "../../foundation/errors.ts";

/** Messages embedded per catch-up call; an old log fills over the next turns instead of stalling one. */
const CATCH_UP_BATCH = 64;
/** Messages embedded per batch by `catchUpAll` (an import): bigger batches, fewer index writes. */
const IMPORT_BATCH = 512;
/** Vectors an older Lilo kept in SQLite moved into the index per step. */
const LEGACY_BATCH = 2000;
/** How deep a filtered search looks in the index before it narrows to the rows that pass (see `search`). */
const MAX_FILTERED_DEPTH = 1024;

/** One hit of the meaning side: message id, its conversation and time, cosine. */
export interface MessageVectorHit {
  id: number;
  conversationId: number;
  createdAt: string;
  score: number;
}

/** What the caller knows of its filter, so the index can leave rows out before ranking (`keep` still decides). */
export interface MessageSearchNarrowing {
  excludeConversationId?: number | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export class MessageVectors {
  /** Users whose every message up to this id has a vector: later catch-ups look only at newer ids. */
  private readonly complete = new Map<string, number>();
  private readonly table: MessageVectorsTable;

  /**
   * `ready` prepares the index for the embedder (the memory service's init),
   * before its first use; `gate`, when given, says whether the embedding
   * model is there: without it nothing is embedded (the messages wait for the
   * reindex) and a removal leaves the vector to that reindex.
   */
  constructor(
    db: Db,
    private readonly embedder: Embedder,
    private readonly index: VectorIndex,
    private readonly ready: () => Promise<void>,
    private readonly gate?: { usable(): Promise<boolean>; fellBehind(): void },
  ) {
    this.table = new MessageVectorsTable(db);
  }

  /** Embeds up to CATCH_UP_BATCH of the user's newest messages that have no vector of this embedder yet. */
  async catchUp(userId: string): Promise<number> {
    if (!(await this.modelThere())) return 0;
    return this.embedMissing(userId, CATCH_UP_BATCH, Number.MAX_SAFE_INTEGER).then((r) => r.count);
  }

  /** Embeds every message of the user that lacks a vector (after an import); returns how many. Linear in the log. */
  async catchUpAll(userId: string): Promise<number> {
    if (!(await this.modelThere())) return 0;
    let total = 0;
    let before = Number.MAX_SAFE_INTEGER;
    for (;;) {
      const r = await this.embedMissing(userId, IMPORT_BATCH, before);
      total += r.count;
      if (r.count < IMPORT_BATCH) return total;
      before = r.lowest; // walk down the log once instead of scanning it again from the top
    }
  }

  /** Embeds every user's messages that lack a vector (`lilo reindex`); returns how many. */
  async indexAll(): Promise<number> {
    let total = 0;
    for (const userId of this.table.users()) total += await this.catchUpAll(userId);
    return total;
  }

  /**
   * The `k` messages closest in meaning, best first, passing `keep` (time
   * filters, the running conversation). `narrow` lets the index leave the
   * running conversation and rows outside [from, to) out before ranking; a
   * filter it cannot express is applied to a deeper candidate list, and when
   * that is not enough, to the user's messages themselves.
   */
  async search(
    userId: string,
    vector: Float32Array,
    k: number,
    keep: (h: MessagePlace) => boolean,
    narrow: MessageSearchNarrowing = {},
  ): Promise<MessageVectorHit[]> {
    if (!(k > 0)) return [];
    await this.ready();
    const base = {
      vector,
      store: "messages" as const,
      userId,
      ...(narrow.excludeConversationId !== undefined ? { excludeRowIds: this.table.conversationIds(narrow.excludeConversationId) } : {}),
      ...(narrow.from !== undefined || narrow.to !== undefined ? { rowIds: this.table.idsBetween(userId, narrow.from, narrow.to) } : {}),
    };
    for (let depth = Math.max(k + 16, 2 * k); ; depth *= 4) {
      const hits = await this.index.search({ ...base, k: depth });
      const out = await this.kept(userId, hits, k, keep);
      if (out.length >= k || hits.length < depth) return out;
      if (depth >= MAX_FILTERED_DEPTH) break;
    }
    // A narrow filter the index cannot express (a time of day): rank just the messages that pass it.
    const passing = this.table
      .allPlaces(userId)
      .filter((p) => keep(p))
      .map((p) => p.id);
    if (!passing.length) return [];
    return this.kept(userId, await this.index.search({ ...base, rowIds: passing, k }), k, keep);
  }

  /**
   * Removes one message's vector (a deleted or redacted message). It is not
   * embedded again unless its text changes afterwards; a deleted message's
   * mark goes with it.
   */
  async remove(userId: string, messageId: number): Promise<void> {
    await this.removeMany(userId, [messageId]);
  }

  /** Removes the vectors of these messages of the user. */
  async removeMany(userId: string, messageIds: number[]): Promise<void> {
    if (!messageIds.length) return;
    if (await this.modelThere()) {
      await this.ready();
      await this.index.delete(messageIds.map((rowId) => ({ store: "messages" as const, rowId, userId })));
    }
    // Marked as handled, so no catch-up embeds it again; a later change of its text clears the mark (a trigger).
    this.table.mark(userId, this.embedder.id, messageIds);
  }

  /** False while the embedding model is missing; the index is then behind until the reindex has run. */
  private async modelThere(): Promise<boolean> {
    if (!this.gate || (await this.gate.usable())) return true;
    this.gate.fellBehind();
    return false;
  }

  /** The index was emptied (`lilo reindex`): every message is embedded again as users search. */
  forgetAll(): void {
    this.table.unmarkAll();
    this.complete.clear();
  }

  /** Hits whose message still exists and passes `keep`, at most `k`; vectors of deleted messages are dropped from the index. */
  private async kept(userId: string, hits: { rowId: number; score: number }[], k: number, keep: (h: MessagePlace) => boolean): Promise<MessageVectorHit[]> {
    const places = this.table.places(
      userId,
      hits.map((h) => h.rowId),
    );
    const gone = hits.filter((h) => !places.has(h.rowId)).map((h) => h.rowId);
    if (gone.length) await this.index.delete(gone.map((rowId) => ({ store: "messages" as const, rowId, userId })));
    const out: MessageVectorHit[] = [];
    // Equal scores in id order, as the exact scan this replaced listed them.
    for (const h of [...hits].sort((a, b) => b.score - a.score || a.rowId - b.rowId)) {
      const p = places.get(h.rowId);
      if (!p || !keep(p)) continue;
      out.push({ id: h.rowId, conversationId: p.conversationId, createdAt: p.createdAt, score: h.score });
      if (out.length === k) break;
    }
    return out;
  }

  /** Embeds up to `limit` of the user's messages below `before` that lack a vector, newest first. */
  private async embedMissing(userId: string, limit: number, before: number): Promise<{ count: number; lowest: number }> {
    await this.ready();
    const after = this.complete.get(userId);
    if (after === undefined) {
      this.table.dropOtherEmbedders(userId, this.embedder.id);
      await this.takeOverLegacy(userId);
    }
    // Once complete, only newer messages can lack a vector (an edited old message waits for the next start);
    // a message still waiting for its turn is not embedded yet, so "complete" stops below it.
    const missing = this.table.missing(userId, after ?? 0, before, limit);
    if (missing.length < limit && before === Number.MAX_SAFE_INTEGER) this.complete.set(userId, Math.max(after ?? 0, this.table.settledUpTo(userId)));
    if (!missing.length) return { count: 0, lowest: before };
    const vectors = await this.embedder.embed(missing.map((m) => m.text));
    if (vectors.length !== missing.length) throw new LiloError("embedder", `The embedder returned ${vectors.length} vectors for ${missing.length} messages`);
    // Index first, mark after: a crash between leaves a message embedded again, never one marked without a vector.
    await this.index.upsert(missing.map((m, i) => ({ store: "messages" as const, rowId: m.id, userId, vector: vectors[i]! })));
    this.table.mark(
      userId,
      this.embedder.id,
      missing.map((m) => m.id),
    );
    return { count: missing.length, lowest: missing[missing.length - 1]!.id };
  }

  /** Moves the vectors an older Lilo kept in SQLite into the index (same embedder; others are dropped). */
  private async takeOverLegacy(userId: string): Promise<void> {
    this.table.dropLegacy(userId, this.embedder.id);
    for (let rows = this.table.legacy(userId, this.embedder.id, LEGACY_BATCH); rows.length; rows = this.table.legacy(userId, this.embedder.id, LEGACY_BATCH)) {
      const ids = rows.map((r) => r.id);
      await this.index.upsert(rows.map((r) => ({ store: "messages" as const, rowId: r.id, userId, vector: r.vector })));
      this.table.mark(userId, this.embedder.id, ids);
      this.table.dropLegacy(userId, this.embedder.id, ids);
    }
  }
}
