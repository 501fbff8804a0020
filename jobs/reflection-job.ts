import type { Lilo, Logger } from "../core/index.ts";
import { describeError } from "../core/index.ts";
import type { JobSummary } from "./diary-job.ts";

/**
 * The scheduled reflection for every user Lilo knows; the core skips users
 * without chats newer than the last reflection. Failures are logged per user.
 */
export async function runReflectionJob(lilo: Lilo, logger: Logger): Promise<JobSummary> {
  const summary: JobSummary = { users: 0, done: 0, skipped: 0, failed: 0 };
  for (const userId of lilo.knownUsers()) {
    summary.users++;
    try {
      const r = await lilo.reflection.run(userId);
      if (r.reason === "failed") summary.failed++;
      else if (r.thought || r.concern) summary.done++;
      else summary.skipped++;
    } catch (err) {
      summary.failed++;
      logger.error("reflection job failed for a user", { userId, error: describeError(err) });
    }
  }
  logger.info("reflection job finished", { ...summary });
  return summary;
}
