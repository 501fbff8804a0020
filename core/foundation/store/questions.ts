import type { Db } from "./db.ts";
import { prepared } from "./prepared.ts";
import { writeTransaction } from "./tx.ts";

/** A question Lilo asked and may still be waiting on. */
export interface PendingQuestion {
  id: number;
  userId: string;
  kind: string;
  payload: unknown;
  status: "open" | "yes" | "no" | "discarded" | "expired";
  expiresAt: string;
  createdAt: string;
}

type Raw = { id: number; user_id: string; kind: string; payload: string; status: PendingQuestion["status"]; expires_at: string; created_at: string };
const toQuestion = (r: Raw): PendingQuestion => ({
  id: r.id,
  userId: r.user_id,
  kind: r.kind,
  payload: JSON.parse(r.payload) as unknown,
  status: r.status,
  expiresAt: r.expires_at,
  createdAt: r.created_at,
});

/** The rows of `pending_questions`; who may answer and what an answer does lives in core/conversation/questions. */
export class QuestionsStore {
  constructor(private readonly db: Db) {}

  /** Stores an open question in one write transaction, discarding the user's open one; returns its id. */
  replaceOpen(q: { userId: string; kind: string; payload: unknown; expiresAt: string }, now: string): number {
    return writeTransaction(this.db, () => {
      prepared(this.db, `UPDATE pending_questions SET status = 'discarded', updated_at = ? WHERE user_id = ? AND status = 'open'`).run(now, q.userId);
      const info = prepared(
        this.db,
        `INSERT INTO pending_questions (user_id, kind, payload, status, expires_at, created_at, updated_at) VALUES (?, ?, ?, 'open', ?, ?, ?)`,
      ).run(q.userId, q.kind, JSON.stringify(q.payload), q.expiresAt, now, now);
      return Number(info.lastInsertRowid);
    });
  }

  /** Marks the user's open questions expired at `now` as expired. */
  expireDue(userId: string, now: string): void {
    prepared(this.db, `UPDATE pending_questions SET status = 'expired', updated_at = ? WHERE user_id = ? AND status = 'open' AND expires_at <= ?`).run(
      now,
      userId,
      now,
    );
  }

  /** The user's newest open question. */
  newestOpen(userId: string): PendingQuestion | undefined {
    const r = prepared(this.db, `SELECT * FROM pending_questions WHERE user_id = ? AND status = 'open' ORDER BY id DESC LIMIT 1`).get(userId) as
      Raw | undefined;
    return r && toQuestion(r);
  }

  get(id: number): PendingQuestion | undefined {
    const r = prepared(this.db, `SELECT * FROM pending_questions WHERE id = ?`).get(id) as Raw | undefined;
    return r && toQuestion(r);
  }

  /** Discards a question if it is still open. */
  discard(id: number, now: string): void {
    prepared(this.db, `UPDATE pending_questions SET status = 'discarded', updated_at = ? WHERE id = ? AND status = 'open'`).run(now, id);
  }

  /** Marks a question expired. */
  expire(id: number, now: string): void {
    prepared(this.db, `UPDATE pending_questions SET status = 'expired', updated_at = ? WHERE id = ?`).run(now, id);
  }

  /** Sets the answer of a still open question; false when it was not open (any more). */
  claim(id: number, answer: "yes" | "no", now: string): boolean {
    return prepared(this.db, `UPDATE pending_questions SET status = ?, updated_at = ? WHERE id = ? AND status = 'open'`).run(answer, now, id).changes > 0;
  }
}
