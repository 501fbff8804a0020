import type { Lilo, Logger } from "../core/index.ts";
import { forEachUser, type JobSummary } from "./per-user.ts";

/**
 * The scheduled greeting (docs/spec.md §9, Beyond): for every user Lilo knows, the
 * core greets those who opted in to pushes and have been silent for
 * `LILO_GREETING_MIN_HOURS`; the others are skipped without a model call.
 * A greeting that was not delivered (quiet hours, no transport) counts as
 * skipped, a push error as failed.
 */
export function runGreetingJob(lilo: Lilo, logger: Logger): Promise<JobSummary> {
  return forEachUser(lilo, logger, "greeting", async (userId) => {
    const r = await lilo.greeting.run(userId);
    if (r.kind === "sent") return "done";
    return r.kind === "failed" || (r.kind === "not-delivered" && r.push === "failed") ? "failed" : "skipped";
  });
}
