import type { Lilo, Logger } from "../core/index.ts";
import { forEachUser, type JobSummary } from "./per-user.ts";

export type { JobSummary } from "./per-user.ts";

/**
 * The nightly diary: one entry for every user Lilo knows who talked with her
 * (the core skips users without a conversation).
 */
export function runDiaryJob(lilo: Lilo, logger: Logger): Promise<JobSummary> {
  return forEachUser(lilo, logger, "diary", async (userId) => {
    const r = await lilo.diary.run(userId);
    return r.kind === "written" ? "done" : r.kind;
  });
}
