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
 * Nothing runs while a spent budget's cap holds (LILO_BUDGET_DAY /
 * LILO_BUDGET_MONTH), and that is logged once a day per job.
 */
export async function forEachUser(
  lilo: Lilo,
  logger: Logger,
  job: string,
  run: (userId: string) => Promise<"done" | "skipped" | "failed">,
): Promise<JobSummary> {
  const summary: JobSummary = { users: 0, done: 0, skipped: 0, failed: 0 };
  // A spent day or month budget stops what Lilo does on her own, until it renews or is lifted for today.
  if (lilo.usage.budget().capped) {
    logSkipOnce(lilo, logger, job);
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

/** Per Lilo and job, the local day a skip was last logged: a job polled every few minutes logs it once a day. */
const skipLogged = new WeakMap<Lilo, Map<string, string>>();

function logSkipOnce(lilo: Lilo, logger: Logger, job: string): void {
  const day = lilo.clock.now().toLocaleDateString("sv-SE", { timeZone: lilo.config.timezone });
  const logged = skipLogged.get(lilo) ?? new Map<string, string>();
  skipLogged.set(lilo, logged);
  if (logged.get(job) === day) return;
  logged.set(job, day);
  logger.info(`${job} job skipped: the budget is spent (lilo usage); it runs again when the budget renews or /budget lifts it for today`);
}
