import type { Lilo, Logger } from "../core/index.ts";
import { forEachUser, type JobSummary } from "./per-user.ts";

/**
 * The scheduled reflection for every user Lilo knows; the core skips users
 * without chats newer than the last reflection.
 */
export function runReflectionJob(lilo: Lilo, logger: Logger): Promise<JobSummary> {
  return forEachUser(lilo, logger, "reflection", async (userId) => {
    const r = await lilo.reflection.run(userId);
    if (r.kind === "failed") return "failed";
    return r.kind === "thought" || r.concern ? "done" : "skipped";
  });
}
