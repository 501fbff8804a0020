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
 * Runs one job for every user Lilo knows and counts the outcomes. One user's
 * failure never stops the others, and nothing escapes to crash the process.
 * Nothing runs while a budget is spent (LILO_BUDGET_DAY / LILO_BUDGET_MONTH).
 */
export async function forEachUser(
  lilo: Lilo,
  logger: Logger,
  job: string,
  run: (userId: string) => Promise<"done" | "skipped" | "failed">,
): Promise<JobSummary> {
  const summary: JobSummary = { users: 0, done: 0, skipped: 0, failed: 0 };
  // A spent day or month budget stops what Lilo does on her own; the chat goes on.
  if (lilo.usage.budget().level === "spent") {
    logger.info(`${job} job skipped: a budget is spent (lilo usage)`);
    return summary;
  }
  for (const userId of lilo.knownUsers()) {
    summary.users++;
    try {
      summary[await run(userId)]++;
    } catch (err) {
      summary.failed++;
      logger.error(`${job} job failed for a user`, { userId, error: describeError(err) });
    }
  }
  logger.info(`${job} job finished`, { ...summary });
  return summary;
}
