import type { Db } from "./db.ts";
import { prepared } from "./prepared.ts";
import { checkStoreValues } from "./values.ts";

/** A topic the user asked Lilo never to bring up on her own. */
export interface Boundary {
  id: number;
  userId: string;
  text: string;
  sourceMessageId: number | null;
  createdAt: string;
}

type RawBoundary = { id: number; user_id: string; text: string; source_message_id: number | null; created_at: string };
const toBoundary = (r: RawBoundary): Boundary => ({
  id: r.id,
  userId: r.user_id,
  text: r.text,
  sourceMessageId: r.source_message_id,
  createdAt: r.created_at,
});

/** The `boundaries` table. Only a confirmed yes (or the operator) adds one. */
export class BoundariesStore {
  constructor(private readonly db: Db) {}

  /** A user's boundaries, oldest first. */
  list(userId: string): Boundary[] {
    return (prepared(this.db, `SELECT * FROM boundaries WHERE user_id = ? ORDER BY id`).all(userId) as RawBoundary[]).map(toBoundary);
  }

  get(id: number): Boundary | undefined {
    const r = prepared(this.db, `SELECT * FROM boundaries WHERE id = ?`).get(id) as RawBoundary | undefined;
    return r && toBoundary(r);
  }

  /** Adds a boundary (the same text twice is one); returns its id. */
  add(userId: string, rawText: string, now: string, sourceMessageId?: number): number {
    const { text } = checkStoreValues("rules", { text: rawText });
    prepared(this.db, `INSERT OR IGNORE INTO boundaries (user_id, text, source_message_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`).run(
      userId,
      text,
      sourceMessageId ?? null,
      now,
      now,
    );
    return (prepared(this.db, `SELECT id FROM boundaries WHERE user_id = ? AND text = ?`).get(userId, text) as { id: number }).id;
  }

  /** False when there is no such boundary. */
  delete(id: number): boolean {
    return prepared(this.db, `DELETE FROM boundaries WHERE id = ?`).run(id).changes > 0;
  }
}
