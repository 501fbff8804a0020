import type { Db } from "./db.ts";
import { toMessage, type ChatLogMessage, type RawMessage } from "./chat-log.ts";

/**
 * Read-only views of the chat log across conversations, for the jobs that
 * look back over a user's day (diary, reflection) rather than one turn.
 */
export class ChatHistory {
  constructor(private readonly db: Db) {}

  /** Every user Lilo has talked with: the users the scheduled jobs run for. */
  users(): string[] {
    const rows = this.db.prepare(`SELECT DISTINCT user_id FROM messages ORDER BY user_id`).all() as { user_id: string }[];
    return rows.map((r) => r.user_id);
  }

  /** The newest `limit` messages of a user written at or after `sinceIso`, oldest first. */
  since(userId: string, sinceIso: string, limit: number): ChatLogMessage[] {
    const rows = this.db
      .prepare(`SELECT * FROM messages WHERE user_id = ? AND created_at >= ? ORDER BY created_at DESC, id DESC LIMIT ?`)
      .all(userId, sinceIso, limit) as RawMessage[];
    return rows.reverse().map(toMessage);
  }

  /** The newest `limit` messages of a user across conversations, oldest first. */
  latest(userId: string, limit: number): ChatLogMessage[] {
    const rows = this.db.prepare(`SELECT * FROM messages WHERE user_id = ? ORDER BY id DESC LIMIT ?`).all(userId, limit) as RawMessage[];
    return rows.reverse().map(toMessage);
  }

  /**
   * The newest `limit` messages before conversation `conversationId` began
   * (ids only grow), oldest first: what a greeting on return looks back on.
   * Not cut at the previous conversation, so a greeting Lilo sent on her own
   * in a conversation of its own does not hide what was said before it.
   */
  beforeConversation(userId: string, conversationId: number, limit: number): ChatLogMessage[] {
    const rows = this.db
      .prepare(`SELECT * FROM messages WHERE user_id = ? AND conversation_id < ? AND history_import IS NULL ORDER BY id DESC LIMIT ?`)
      .all(userId, conversationId, limit) as RawMessage[];
    return rows.reverse().map(toMessage);
  }

  /** When Lilo last wrote to the user on her own (a pushed greeting), if ever. */
  lastProactiveAt(userId: string): string | undefined {
    const r = this.db.prepare(`SELECT max(created_at) AS at FROM messages WHERE user_id = ? AND proactive = 1`).get(userId) as { at: string | null };
    return r.at ?? undefined;
  }

  /** The newest `limit` texts the user wrote, oldest first. */
  latestUserTexts(userId: string, limit: number): string[] {
    const rows = this.db
      .prepare(`SELECT text FROM messages WHERE user_id = ? AND role = 'user' AND history_import IS NULL ORDER BY id DESC LIMIT ?`)
      .all(userId, limit) as {
      text: string;
    }[];
    return rows.reverse().map((r) => r.text);
  }

  /**
   * Id of the user's newest exchanged message (ids only grow), or undefined
   * before the first one. Lilo's own pushes (greetings, concerns, diary pings)
   * do not count: nothing new was said to reflect on; nor does an imported chat history.
   */
  latestId(userId: string): number | undefined {
    const r = this.db.prepare(`SELECT max(id) AS id FROM messages WHERE user_id = ? AND proactive = 0 AND history_import IS NULL`).get(userId) as {
      id: number | null;
    };
    return r.id ?? undefined;
  }
}
