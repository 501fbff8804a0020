import type { Db } from "./db.ts";
import type { PushMessage, PushTarget } from "../ports/transport.ts";

/** Bookkeeping that runs once a push was delivered: store it as Lilo's proactive message, mark a topic done. */
export interface AfterDelivery {
  /** Store the delivered text in the chat log as Lilo's own message, with this model label. */
  proactive?: { model: string | null };
  /** The 🧠 concern topic this push raised: done once delivered. */
  topicDone?: number;
  /** The reminder this push rings: its delivery is noted on it. */
  reminder?: number;
}

/** One push waiting for (or claimed by) the process that has the chat connections. */
export interface OutboxRow {
  id: number;
  userId: string;
  message: PushMessage;
  force: boolean;
  after: AfterDelivery | undefined;
  attempts: number;
  /** When the push was written to the outbox (ISO): a push queued too long is dropped, not sent late. */
  createdAt: string;
  /** The chat a reminder goes to (the one it was set in), instead of the user's push opt-in. */
  target: PushTarget | undefined;
}

interface RawRow {
  id: number;
  user_id: string;
  kind: string;
  text: string;
  force: number;
  after: string | null;
  attempts: number;
  created_at: string;
  target: string | null;
}

/**
 * The push outbox (SQLite): any process (bot, jobs, CLI) writes a push here;
 * the running bot claims and delivers it. A claim is one atomic UPDATE, so a
 * row is sent by one delivery only; a claim a crash interrupted is retried
 * once on the next start.
 */
export class Outbox {
  constructor(private readonly db: Db) {}

  add(userId: string, message: PushMessage, force: boolean, after: AfterDelivery | undefined, now: string, target?: PushTarget): number {
    const r = this.db
      .prepare(`INSERT INTO push_outbox (user_id, kind, text, force, after, created_at, updated_at, target) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(userId, message.kind, message.text, force ? 1 : 0, after ? JSON.stringify(after) : null, now, now, target ? JSON.stringify(target) : null);
    return Number(r.lastInsertRowid);
  }

  /** Claims a pending row for delivery; undefined when another delivery has it already. */
  claim(id: number, now: string): OutboxRow | undefined {
    const changed = this.db
      .prepare(`UPDATE push_outbox SET status = 'claimed', attempts = attempts + 1, updated_at = ? WHERE id = ? AND status = 'pending'`)
      .run(now, id).changes;
    if (changed !== 1) return undefined;
    return toRow(this.db.prepare(`SELECT id, user_id, kind, text, force, after, attempts, created_at, target FROM push_outbox WHERE id = ?`).get(id) as RawRow);
  }

  finish(id: number, outcome: string, now: string): void {
    this.db.prepare(`UPDATE push_outbox SET status = 'done', outcome = ?, updated_at = ? WHERE id = ?`).run(outcome, now, id);
  }

  /** Ids of pushes waiting for delivery, oldest first. */
  pending(limit = 20): number[] {
    return (this.db.prepare(`SELECT id FROM push_outbox WHERE status = 'pending' ORDER BY id LIMIT ?`).all(limit) as { id: number }[]).map((r) => r.id);
  }

  /** How many pushes wait for the running bot. */
  queued(): number {
    return (this.db.prepare(`SELECT COUNT(*) AS n FROM push_outbox WHERE status = 'pending'`).get() as { n: number }).n;
  }

  /**
   * On start: a row claimed by a delivery that never finished (crash) goes
   * back to pending once; claimed twice, it is given up. Returns the rows given up.
   */
  recover(now: string, maxAttempts = 2): OutboxRow[] {
    const given = (
      this.db
        .prepare(`SELECT id, user_id, kind, text, force, after, attempts, created_at, target FROM push_outbox WHERE status = 'claimed' AND attempts >= ?`)
        .all(maxAttempts) as RawRow[]
    ).map(toRow);
    this.db.prepare(`UPDATE push_outbox SET status = 'pending', updated_at = ? WHERE status = 'claimed' AND attempts < ?`).run(now, maxAttempts);
    for (const g of given) this.finish(g.id, "failed", now);
    return given;
  }
}

function toRow(r: RawRow): OutboxRow {
  // The push kinds are the ones PushMessage names: only Push.send and the reminder scheduler write this table.
  const after = r.after ? (JSON.parse(r.after) as AfterDelivery) : undefined;
  const message = { kind: r.kind, text: r.text } as PushMessage;
  if (after?.reminder !== undefined) message.reminderId = after.reminder;
  return {
    id: r.id,
    userId: r.user_id,
    message,
    force: r.force === 1,
    after,
    attempts: r.attempts,
    createdAt: r.created_at,
    target: r.target ? (JSON.parse(r.target) as PushTarget) : undefined,
  };
}
