import type { Db } from "./db.ts";
import { toMessage, type ChatLogMessage, type Delivery, type RawMessage, type ReplyState } from "./chat-log.ts";

/** A user message whose turn did not finish, or whose answer was not delivered yet. */
export interface UnfinishedMessage {
  message: ChatLogMessage;
  chatId: string | null;
  externalId: string | null;
  replyState: ReplyState;
  /** The stored answer still waiting to be sent, when the turn itself finished. */
  answer?: ChatLogMessage;
}

/**
 * The chat log seen as an inbox: user messages are stored when they arrive
 * (before the platform is told they were received) and carry how far their
 * turn got; answers carry whether they reached the user.
 */
export class InboxStore {
  constructor(private readonly db: Db) {}

  /** How many user messages wait for their answer (the inbox's backlog, for `/metrics`). */
  pendingCount(): number {
    return (this.db.prepare(`SELECT count(*) AS n FROM messages WHERE role = 'user' AND reply_state = 'pending'`).get() as { n: number }).n;
  }

  /** The stored message with this platform id, if it arrived before. */
  findExternal(transport: string, externalId: string): { message: ChatLogMessage; replyState: ReplyState } | undefined {
    const r = this.db.prepare(`SELECT * FROM messages WHERE transport = ? AND external_id = ?`).get(transport, externalId) as
      (RawMessage & { reply_state: ReplyState }) | undefined;
    return r && { message: toMessage(r), replyState: r.reply_state };
  }

  replyState(messageId: number): ReplyState | undefined {
    const r = this.db.prepare(`SELECT reply_state FROM messages WHERE id = ?`).get(messageId) as { reply_state: ReplyState } | undefined;
    return r?.reply_state;
  }

  setReplyState(messageId: number, state: ReplyState, now: string): void {
    this.db.prepare(`UPDATE messages SET reply_state = ?, updated_at = ? WHERE id = ?`).run(state, now, messageId);
  }

  /**
   * Gives a message still waiting for its turn its real text (a voice note
   * stored on arrival as a placeholder gets its transcript). False when its
   * turn already ran: the text it was answered with stays.
   */
  completeText(messageId: number, text: string, now: string): boolean {
    if (!text) return false;
    return (
      this.db.prepare(`UPDATE messages SET text = ?, updated_at = ? WHERE id = ? AND role = 'user' AND reply_state = 'pending'`).run(text, now, messageId)
        .changes === 1
    );
  }

  /** A message no turn will answer (the adapter replied itself): no longer waiting, never resumed. */
  dismiss(messageId: number, now: string): void {
    this.db
      .prepare(`UPDATE messages SET reply_state = 'acknowledged', updated_at = ? WHERE id = ? AND role = 'user' AND reply_state = 'pending'`)
      .run(now, messageId);
  }

  /** Records whether an answer reached the user. */
  setDelivery(answerId: number, delivery: Delivery, now: string): void {
    this.db.prepare(`UPDATE messages SET delivery = ?, updated_at = ? WHERE id = ? AND role = 'assistant'`).run(delivery, now, answerId);
  }

  delivery(answerId: number): Delivery | undefined {
    const r = this.db.prepare(`SELECT delivery FROM messages WHERE id = ?`).get(answerId) as { delivery: Delivery } | undefined;
    return r?.delivery;
  }

  /** The newest answer to a user message. */
  answerTo(messageId: number): (ChatLogMessage & { delivery: Delivery }) | undefined {
    const r = this.db.prepare(`SELECT * FROM messages WHERE reply_to = ? AND role = 'assistant' ORDER BY id DESC LIMIT 1`).get(messageId) as
      (RawMessage & { delivery: Delivery }) | undefined;
    return r && { ...toMessage(r), delivery: r.delivery };
  }

  /**
   * Messages of one platform that still need something, oldest first: turns
   * that never finished (the process died, or the message waited in a queue)
   * and answers stored but not sent.
   */
  unfinished(transport: string): UnfinishedMessage[] {
    const rows = this.db
      .prepare(
        `SELECT u.*, a.id AS answer_id FROM messages u
         LEFT JOIN messages a ON a.reply_to = u.id AND a.role = 'assistant' AND a.delivery = 'pending'
         WHERE u.role = 'user' AND u.transport = ? AND (u.reply_state = 'pending' OR a.id IS NOT NULL)
         ORDER BY u.id`,
      )
      .all(transport) as (RawMessage & { reply_state: ReplyState; chat_id: string | null; external_id: string | null; answer_id: number | null })[];
    return rows.map((r) => {
      const answer = r.answer_id !== null ? (this.db.prepare(`SELECT * FROM messages WHERE id = ?`).get(r.answer_id) as RawMessage) : undefined;
      return {
        message: toMessage(r),
        chatId: r.chat_id,
        externalId: r.external_id,
        replyState: r.reply_state,
        ...(answer ? { answer: toMessage(answer) } : {}),
      };
    });
  }

  /** The conversation before `conversationId` of the same user, for its short-term summary. */
  previousConversation(userId: string, conversationId: number): number | undefined {
    const r = this.db
      .prepare(`SELECT id FROM conversations WHERE user_id = ? AND id < ? AND history_import IS NULL ORDER BY id DESC LIMIT 1`)
      .get(userId, conversationId) as { id: number } | undefined;
    return r?.id;
  }

  /** The newest user message whose turn failed or whose answer could not be delivered: what /retry redoes. */
  retryable(userId: string): ChatLogMessage | undefined {
    const r = this.db
      .prepare(
        `SELECT * FROM messages m WHERE user_id = ? AND role = 'user' AND id = (SELECT max(id) FROM messages WHERE user_id = ? AND role = 'user')
         AND (reply_state IN ('failed', 'pending')
              OR (EXISTS (SELECT 1 FROM messages a WHERE a.reply_to = m.id AND a.delivery = 'failed')
                  AND NOT EXISTS (SELECT 1 FROM messages a WHERE a.reply_to = m.id AND a.delivery <> 'failed')))`,
      )
      .get(userId, userId) as RawMessage | undefined;
    return r && toMessage(r);
  }
}
