import type { Db } from "./db.ts";

/** Store 3: where the last conversation left off. */
export class ShortTermStore {
  constructor(private readonly db: Db) {}

  /** The newest summary of a user. */
  latest(userId: string): { id: number; text: string; conversationId: number | null; createdAt: string } | undefined {
    const r = this.db
      .prepare(`SELECT id, text, conversation_id, created_at FROM short_term WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT 1`)
      .get(userId) as { id: number; text: string; conversation_id: number | null; created_at: string } | undefined;
    return r && { id: r.id, text: r.text, conversationId: r.conversation_id, createdAt: r.created_at };
  }

  add(userId: string, conversationId: number | null, text: string, now: string): number {
    const info = this.db
      .prepare(`INSERT INTO short_term (user_id, conversation_id, text, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`)
      .run(userId, conversationId, text, now, now);
    return Number(info.lastInsertRowid);
  }

  hasSummary(conversationId: number): boolean {
    return !!this.db.prepare(`SELECT 1 FROM short_term WHERE conversation_id = ?`).get(conversationId);
  }
}
