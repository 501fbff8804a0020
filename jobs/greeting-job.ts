import type { Lilo, Logger } from "../core/index.ts";
import { describeError } from "../core/index.ts";
import type { JobSummary } from "./diary-job.ts";

/**
 * The scheduled greeting (SPEC §9, Beyond): for every user Lilo knows, the
 * core greets those who opted in to pushes and have been silent for
 * `LILO_GREETING_MIN_HOURS`; the others are skipped without a model call.
 * A greeting that was not delivered (quiet hours, no transport, push error)
 * counts as skipped, or failed for a push error; one user's failure never
 * stops the others.
 */
export async function runGreetingJob(lilo: Lilo, logger: Logger): Promise<JobSummary> {
  const summary: JobSummary = { users: 0, done: 0, skipped: 0, failed: 0 };
  for (const userId of lilo.knownUsers()) {
    summary.users++;
    try {
      const r = await lilo.greeting.run(userId);
      if (r.sent) summary.done++;
      else if (r.reason === "failed" || r.push === "failed") summary.failed++;
      else summary.skipped++;
    } catch (err) {
      summary.failed++;
      logger.error("greeting job failed for a user", { userId, error: describeError(err) });
    }
  }
  logger.info("greeting job finished", { ...summary });
  return summary;
}
