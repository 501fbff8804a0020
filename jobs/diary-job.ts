import type { Lilo, Logger } from "../core/index.ts";
import { describeError } from "../core/index.ts";

/** What one job run did, for the log and for tests. */
export interface JobSummary {
  users: number;
  done: number;
  skipped: number;
  failed: number;
}

/**
 * The nightly diary: one entry for every user Lilo knows who talked with her
 * (the core skips users without a conversation). One user's failure never
 * stops the others, and nothing escapes to crash the process.
 */
export async function runDiaryJob(lilo: Lilo, logger: Logger): Promise<JobSummary> {
  const summary: JobSummary = { users: 0, done: 0, skipped: 0, failed: 0 };
  for (const userId of lilo.knownUsers()) {
    summary.users++;
    try {
      const r = await lilo.diary.run(userId);
      if (r.written) summary.done++;
      else if (r.reason === "failed") summary.failed++;
      else summary.skipped++;
    } catch (err) {
      summary.failed++;
      logger.error("diary job failed for a user", { userId, error: describeError(err) });
    }
  }
  logger.info("diary job finished", { ...summary });
  return summary;
}
