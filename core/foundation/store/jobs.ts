import { prepared } from "./prepared.ts";
import type { Db } from "./db.ts";

/** One piece of after-reply work, as stored. */
export interface Job {
  id: number;
  userId: string;
  kind: string;
  payload: unknown;
  attempts: number;
  createdAt: string;
}

interface RawJob {
  id: number;
  user_id: string;
  kind: string;
  payload: string;
  attempts: number;
  created_at: string;
}

/**
 * Kinds starting with this are maintenance runs (a reindex) that record
 * their progress in the payload and are continued by their own code; the
 * after-reply runner (DurableJobs) never picks them up.
 */
export const MAINTENANCE_KIND_PREFIX = "maintenance:";

/**
 * Durable after-reply work (extraction, addressed-check): written in the
 * transaction that stores the answer, so a crash between answer and
 * extraction cannot lose that turn's facts; resumed on the next start.
 */
export class JobsStore {
  constructor(private readonly db: Db) {}

  /** Records a pending job; call inside the answer's transaction. */
  add(userId: string, kind: string, payload: unknown, now: string): number {
    const info = this.db
      .prepare(`INSERT INTO jobs (user_id, kind, payload, status, attempts, created_at, updated_at) VALUES (?, ?, ?, 'pending', 0, ?, ?)`)
      .run(userId, kind, JSON.stringify(payload), now, now);
    return Number(info.lastInsertRowid);
  }

  /** Pending after-reply jobs, oldest first (maintenance runs are left out). */
  pending(limit = 1_000): Job[] {
    const rows = this.db
      .prepare(`SELECT * FROM jobs WHERE status = 'pending' AND kind NOT LIKE '${MAINTENANCE_KIND_PREFIX}%' ORDER BY id LIMIT ?`)
      .all(limit) as RawJob[];
    return rows.map(toJob);
  }

  /** The newest pending job of one kind (a maintenance run to continue), if any. */
  latestPending(kind: string): Job | undefined {
    const row = prepared(this.db, `SELECT * FROM jobs WHERE status = 'pending' AND kind = ? ORDER BY id DESC LIMIT 1`).get(kind) as RawJob | undefined;
    return row && toJob(row);
  }

  /** Every pending job of one kind, oldest first (maintenance runs to continue one after another). */
  pendingOf(kind: string): Job[] {
    return (prepared(this.db, `SELECT * FROM jobs WHERE status = 'pending' AND kind = ? ORDER BY id`).all(kind) as RawJob[]).map(toJob);
  }

  /** Records how far a maintenance run got (its payload), so a run killed after this continues from here. */
  progress(id: number, payload: unknown, now: string): void {
    prepared(this.db, `UPDATE jobs SET payload = ?, updated_at = ? WHERE id = ?`).run(JSON.stringify(payload), now, id);
  }

  /** Runs `fn` in one write transaction (taken at once), so a look at the jobs and the change it decides on are not split by another process. */
  exclusive<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /** Counts a start of the job before it runs: a job that keeps crashing the process gives up after the limit. */
  started(id: number, now: string): void {
    prepared(this.db, `UPDATE jobs SET attempts = attempts + 1, updated_at = ? WHERE id = ?`).run(now, id);
  }

  done(id: number, now: string): void {
    prepared(this.db, `UPDATE jobs SET status = 'done', error = NULL, updated_at = ? WHERE id = ?`).run(now, id);
  }

  /** Leaves the job pending for another try, or marks it failed once it used its attempts. */
  failed(id: number, error: string, now: string, final: boolean): void {
    prepared(this.db, `UPDATE jobs SET status = ?, error = ?, updated_at = ? WHERE id = ?`).run(final ? "failed" : "pending", error, now, id);
  }

  /** Leaves the job pending without counting this start: it could not run yet (the budget's cap), which is no failure of its own. */
  postponed(id: number, reason: string, now: string): void {
    prepared(this.db, `UPDATE jobs SET status = 'pending', attempts = max(attempts - 1, 0), error = ?, updated_at = ? WHERE id = ?`).run(reason, now, id);
  }

  /** Jobs by status, for `lilo status`/tests. */
  counts(): Record<string, number> {
    const rows = prepared(this.db, `SELECT status, count(*) AS n FROM jobs GROUP BY status`).all() as { status: string; n: number }[];
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  }
}

function toJob(r: RawJob): Job {
  return { id: r.id, userId: r.user_id, kind: r.kind, payload: JSON.parse(r.payload) as unknown, attempts: r.attempts, createdAt: r.created_at };
}
