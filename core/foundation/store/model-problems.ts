import type { Db } from "./db.ts";

type ProblemOutcome = "repaired" | "retried" | "dropped";

/** Counts model answers that were malformed: repaired, retried, or dropped. */
export class ModelProblems {
  constructor(private readonly db: Db) {}

  record(userId: string, role: string, outcome: ProblemOutcome, detail: string, now: string): void {
    this.db
      .prepare(`INSERT INTO model_problems (user_id, role, outcome, detail, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`)
      .run(userId, role, outcome, detail.slice(0, 2000), now, now);
  }

  /** Counts by role and outcome, for `lilo doctor` and tests. */
  counts(): Record<string, number> {
    const rows = this.db.prepare(`SELECT role, outcome, count(*) AS n FROM model_problems GROUP BY role, outcome`).all() as {
      role: string;
      outcome: string;
      n: number;
    }[];
    return Object.fromEntries(rows.map((r) => [`${r.role}:${r.outcome}`, r.n]));
  }
}
