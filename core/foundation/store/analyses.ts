import type { Db } from "./db.ts";
import { writeTransaction } from "./tx.ts";

/** One saved analysis as stored: the state of an unfinished run (JSON text), the finished report, or both. */
export interface AnalysisRow {
  id: string;
  state: string | null;
  report: string | null;
}

/**
 * Saved analyses (table `analyses`): an unfinished run's state, rewritten
 * after every finished part, and the finished report, which replaces the
 * state. The state is kept as the text it was written as, so a damaged one
 * is still listed and named instead of being lost. Inside the database they
 * are private, in every backup and encrypted whenever the database is.
 */
export class AnalysesStore {
  constructor(private readonly db: Db) {}

  /** Whether an analysis (finished or not) has this id. */
  has(id: string): boolean {
    return this.db.prepare(`SELECT 1 FROM analyses WHERE id = ?`).get(id) !== undefined;
  }

  /** The analysis of this id, or undefined. */
  get(id: string): AnalysisRow | undefined {
    return this.db.prepare(`SELECT id, state, report FROM analyses WHERE id = ?`).get(id) as AnalysisRow | undefined;
  }

  /** Every analysis, ordered by id. */
  all(): AnalysisRow[] {
    return this.db.prepare(`SELECT id, state, report FROM analyses ORDER BY id`).all() as AnalysisRow[];
  }

  /** Writes the state of an unfinished run; a finished analysis keeps its report and gets no state. */
  saveState(id: string, state: string, now: string): void {
    this.db
      .prepare(
        `INSERT INTO analyses (id, state, report, updated_at) VALUES (?, ?, NULL, ?)
         ON CONFLICT(id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at WHERE analyses.report IS NULL`,
      )
      .run(id, state, now);
  }

  /** Writes the finished report and drops the run's state, in one statement. */
  saveReport(id: string, report: string, now: string): void {
    this.db
      .prepare(
        `INSERT INTO analyses (id, state, report, updated_at) VALUES (?, NULL, ?, ?)
         ON CONFLICT(id) DO UPDATE SET state = NULL, report = excluded.report, updated_at = excluded.updated_at`,
      )
      .run(id, report, now);
  }

  /** Writes several analyses' states and reports at once (all or none), as `saveState` and `saveReport` would. */
  saveAll(rows: readonly AnalysisRow[], now: string): void {
    writeTransaction(this.db, () => {
      for (const r of rows) {
        if (r.report !== null) this.saveReport(r.id, r.report, now);
        else if (r.state !== null) this.saveState(r.id, r.state, now);
      }
    });
  }

  /** Deletes an analysis; false when there was none. */
  delete(id: string): boolean {
    return this.db.prepare(`DELETE FROM analyses WHERE id = ?`).run(id).changes === 1;
  }
}
