import { prepared } from "./prepared.ts";
import type { Db } from "./db.ts";
import { writeTransaction } from "./tx.ts";

export type Role = "user" | "assistant";
/** How far a user message's turn got (see migration 4). */
export type ReplyState = "pending" | "answered" | "failed" | "acknowledged";
/** Whether an answer reached the user. */
export type Delivery = "pending" | "delivered" | "failed";

/** The platform a message arrived on and its id there. */
interface MessageOrigin {
  transport?: string | undefined;
  chatId?: string | undefined;
  externalId?: string | undefined;
}

/** One stored chat message. */
export interface ChatLogMessage {
  id: number;
  userId: string;
  conversationId: number;
  role: Role;
  text: string;
  model: string | null;
  mood: string | null;
  /** Lilo wrote it on her own (a pushed greeting), not as an answer to a message. */
  proactive: boolean;
  createdAt: string;
}

interface Conversation {
  id: number;
  userId: string;
  startedAt: string;
  lastMessageAt: string;
  startModel: string | null;
}

/** A messages row as SQLite returns it. */
export interface RawMessage {
  id: number;
  user_id: string;
  conversation_id: number;
  role: Role;
  text: string;
  model: string | null;
  mood: string | null;
  proactive: number;
  created_at: string;
}

/** Maps a messages row to the public shape. */
export const toMessage = (r: RawMessage): ChatLogMessage => ({
  id: r.id,
  userId: r.user_id,
  conversationId: r.conversation_id,
  role: r.role,
  text: r.text,
  model: r.model,
  mood: r.mood,
  proactive: r.proactive === 1,
  createdAt: r.created_at,
});

/** Messages before message `?` (three parameters): stored earlier, or answering a message stored earlier. */
const BEFORE = `(id < ? OR (role = 'assistant' AND reply_to IS NOT NULL AND reply_to < ?))`;

/** Store 1: every message verbatim, grouped into conversations. */
export class ChatLog {
  constructor(private readonly db: Db) {}

  /** The newest conversation of a user with Lilo, if any (an imported chat history is none). */
  latestConversation(userId: string): Conversation | undefined {
    const r = prepared(this.db, `SELECT * FROM conversations WHERE user_id = ? AND history_import IS NULL ORDER BY last_message_at DESC, id DESC LIMIT 1`).get(
      userId,
    ) as { id: number; user_id: string; started_at: string; last_message_at: string; start_model: string | null } | undefined;
    return r && { id: r.id, userId: r.user_id, startedAt: r.started_at, lastMessageAt: r.last_message_at, startModel: r.start_model };
  }

  /**
   * The conversation a message at `now` belongs to: the latest one, unless
   * the pause since its last message exceeds `pauseMinutes` — then a new one.
   */
  conversationAt(userId: string, now: Date, pauseMinutes: number, model: string | null): { id: number; isNew: boolean; previous?: Conversation } {
    const last = this.latestConversation(userId);
    if (last && now.getTime() - Date.parse(last.lastMessageAt) <= pauseMinutes * 60_000) return { id: last.id, isNew: false };
    const iso = now.toISOString();
    const info = prepared(this.db, `INSERT INTO conversations (user_id, started_at, last_message_at, start_model) VALUES (?, ?, ?, ?)`).run(
      userId,
      iso,
      iso,
      model,
    );
    return { id: Number(info.lastInsertRowid), isNew: true, ...(last ? { previous: last } : {}) };
  }

  /**
   * Stores one message; `recallAnswer` marks an answer written with passages
   * from the chat log (docs/spec.md §5.1), `proactive` a message Lilo sent on her own.
   */
  append(m: {
    userId: string;
    conversationId: number;
    role: Role;
    text: string;
    model?: string | null;
    mood?: string | null;
    createdAt: string;
    recallAnswer?: boolean;
    /** An answer the person stopped while it was written: what had been shown. */
    stopped?: boolean;
    proactive?: boolean;
    /** Where a user message came from; its external id makes a redelivery a no-op. */
    origin?: MessageOrigin;
    /** A user message starts `pending` until its turn is finished (default `answered`). */
    replyState?: ReplyState;
    /** An answer starts `pending` until the adapter reports it sent (default `delivered`). */
    delivery?: Delivery;
    /** The user message an answer answers. */
    replyTo?: number;
  }): ChatLogMessage {
    const id = writeTransaction(this.db, () => {
      const info = prepared(
        this.db,
        `INSERT INTO messages (user_id, conversation_id, role, text, model, mood, created_at, updated_at, recall_answer, proactive, transport, chat_id, external_id, reply_state, delivery, reply_to, stopped)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        m.userId,
        m.conversationId,
        m.role,
        m.text,
        m.model ?? null,
        m.mood ?? null,
        m.createdAt,
        m.createdAt,
        m.recallAnswer ? 1 : 0,
        m.proactive ? 1 : 0,
        m.origin?.transport ?? null,
        m.origin?.chatId ?? null,
        m.origin?.externalId ?? null,
        m.replyState ?? "answered",
        m.delivery ?? "delivered",
        m.replyTo ?? null,
        m.stopped ? 1 : 0,
      );
      prepared(this.db, `UPDATE conversations SET last_message_at = ? WHERE id = ? AND last_message_at < ?`).run(m.createdAt, m.conversationId, m.createdAt);
      return Number(info.lastInsertRowid);
    });
    return this.get(id)!;
  }

  get(id: number): ChatLogMessage | undefined {
    const r = prepared(this.db, `SELECT * FROM messages WHERE id = ?`).get(id) as RawMessage | undefined;
    return r && toMessage(r);
  }

  /**
   * The last `limit` messages of a conversation before message `beforeId`,
   * oldest first. A message stored on arrival waits behind the turn of an
   * earlier one, whose answer then gets a higher id: answers to earlier
   * messages count as before it, in the order of the messages they answer.
   */
  recent(conversationId: number, limit: number, beforeId = Number.MAX_SAFE_INTEGER): ChatLogMessage[] {
    const rows = prepared(
      this.db,

      `SELECT * FROM messages WHERE conversation_id = ? AND id <> ? AND ${BEFORE}
         ORDER BY coalesce(reply_to, id) DESC, id DESC LIMIT ?`,
    ).all(conversationId, beforeId, beforeId, beforeId, limit) as RawMessage[];
    return rows.reverse().map(toMessage);
  }

  /**
   * Does message `messageId` open its conversation? True when nothing but
   * messages Lilo sent on her own (a pushed greeting) came before it, so the
   * reply to a greeting still gets the short-term memory of a new conversation.
   */
  opensConversation(conversationId: number, messageId: number): boolean {
    const r = prepared(this.db, `SELECT 1 FROM messages WHERE conversation_id = ? AND id < ? AND proactive = 0 LIMIT 1`).get(conversationId, messageId);
    return r === undefined;
  }

  /** The user's newest message, for retrying a turn whose model call failed. */
  lastMessage(userId: string): ChatLogMessage | undefined {
    const r = prepared(this.db, `SELECT * FROM messages WHERE user_id = ? ORDER BY id DESC LIMIT 1`).get(userId) as RawMessage | undefined;
    return r && toMessage(r);
  }

  /** The newest message the person wrote in a conversation, with the chat it came from (where a reminder set in it rings). */
  lastUserOrigin(conversationId: number): { id: number; transport: string | null; chatId: string | null } | undefined {
    const r = prepared(this.db, `SELECT id, transport, chat_id FROM messages WHERE conversation_id = ? AND role = 'user' ORDER BY id DESC LIMIT 1`).get(
      conversationId,
    ) as { id: number; transport: string | null; chat_id: string | null } | undefined;
    return r && { id: r.id, transport: r.transport, chatId: r.chat_id };
  }

  /** The assistant message that preceded message `id` in its conversation. */
  previousAssistant(conversationId: number, beforeId: number): ChatLogMessage | undefined {
    const r = prepared(
      this.db,

      `SELECT * FROM messages WHERE conversation_id = ? AND role = 'assistant' AND id <> ? AND ${BEFORE} ORDER BY coalesce(reply_to, id) DESC, id DESC LIMIT 1`,
    ).get(conversationId, beforeId, beforeId, beforeId) as RawMessage | undefined;
    return r && toMessage(r);
  }

  count(userId?: string): number {
    const r = userId
      ? prepared(this.db, `SELECT count(*) AS n FROM messages WHERE user_id = ?`).get(userId)
      : prepared(this.db, `SELECT count(*) AS n FROM messages`).get();
    return (r as { n: number }).n;
  }
}
