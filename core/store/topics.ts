import type { Db } from "./db.ts";

/** A follow-up topic or a 🧠 concern. */
export interface Topic {
  id: number;
  userId: string;
  text: string;
  kind: "followup" | "concern";
  status: "open" | "done" | "dropped" | "queued";
  dueAt: string;
  createdAt: string;
}

type RawTopic = { id: number; user_id: string; text: string; kind: Topic["kind"]; status: Topic["status"]; due_at: string; created_at: string };
const toTopic = (r: RawTopic): Topic => ({ id: r.id, userId: r.user_id, text: r.text, kind: r.kind, status: r.status, dueAt: r.due_at, createdAt: r.created_at });

/** Store 8: things to ask about later. */
export class TopicsStore {
  constructor(private readonly db: Db) {}

  add(userId: string, text: string, kind: Topic["kind"], dueAt: string, now: string): number {
    const info = this.db
      .prepare(`INSERT INTO topics (user_id, text, kind, status, due_at, created_at, updated_at) VALUES (?, ?, ?, 'open', ?, ?, ?)`)
      .run(userId, text, kind, dueAt, now, now);
    return Number(info.lastInsertRowid);
  }

  list(userId: string, status: Topic["status"] = "open"): Topic[] {
    return (this.db.prepare(`SELECT * FROM topics WHERE user_id = ? AND status = ? ORDER BY due_at, id`).all(userId, status) as RawTopic[]).map(toTopic);
  }
}
