import type { Db } from "./db.ts";

/** `[[VORSCHLAG:]]` ideas Lilo has for improving herself. */
export class SuggestionsStore {
  constructor(private readonly db: Db) {}

  add(userId: string, text: string, now: string): number {
    const info = this.db.prepare(`INSERT INTO suggestions (user_id, text, created_at, updated_at) VALUES (?, ?, ?, ?)`).run(userId, text, now, now);
    return Number(info.lastInsertRowid);
  }

  list(userId?: string): { id: number; userId: string; text: string; createdAt: string }[] {
    const rows = (
      userId
        ? this.db.prepare(`SELECT * FROM suggestions WHERE user_id = ? ORDER BY id DESC`).all(userId)
        : this.db.prepare(`SELECT * FROM suggestions ORDER BY id DESC`).all()
    ) as { id: number; user_id: string; text: string; created_at: string }[];
    return rows.map((r) => ({ id: r.id, userId: r.user_id, text: r.text, createdAt: r.created_at }));
  }

  /** Deletes an idea (done or not wanted); false when there is no such idea. */
  delete(id: number): boolean {
    return this.db.prepare(`DELETE FROM suggestions WHERE id = ?`).run(id).changes > 0;
  }
}
