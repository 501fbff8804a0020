import { Cron } from "croner";
import type { Lilo, Logger } from "../core/index.ts";
import { ConfigError, describeError } from "../core/index.ts";
import { runDiaryJob } from "./diary-job.ts";
import { runReflectionJob } from "./reflection-job.ts";
import { runGreetingJob } from "./greeting-job.ts";
import { runFeedsJob } from "./feeds-job.ts";

/** The scheduled jobs of a running Lilo. */
export interface RunningJobs {
  /** The croner jobs by name, e.g. to ask `nextRun()`. */
  jobs: { diary?: Cron; reflection?: Cron; greeting?: Cron; feeds?: Cron };
  /** Stops every job and waits for a run in progress, so Lilo can be closed safely afterwards. */
  stop(): Promise<void>;
}

/** "23:45" → the cron pattern "45 23 * * *" (every day at that local time). */
export function dailyPattern(time: string): string {
  const m = /^(\d{1,2}):(\d{2})$/.exec(time.trim());
  if (!m) throw new RangeError(`"${time}" is not HH:MM`);
  return `${Number(m[2])} ${Number(m[1])} * * *`;
}

/**
 * Starts the diary, reflection and (when enabled) greeting jobs in this process (SPEC §1: one process
 * for adapters and jobs), in Lilo's time zone. A run never overlaps the
 * previous one (`protect`), and a failure is logged, never thrown.
 */
export function startJobs(lilo: Lilo, logger: Logger): RunningJobs {
  const { diary, reflection, greeting, timezone } = lilo.config;
  const jobs: RunningJobs["jobs"] = {};
  const inflight = new Set<Promise<unknown>>();
  // Remembers each run so `stop` can wait for it before the database closes.
  const track = (run: () => Promise<unknown>) => async () => {
    const p = run();
    inflight.add(p);
    try {
      await p;
    } finally {
      inflight.delete(p);
    }
  };
  const options = (name: string) => ({
    timezone,
    protect: (job: Cron) => logger.warn(`${name} job still running; this run is skipped`, { startedAt: job.currentRun()?.toISOString() }),
    catch: (err: unknown) => logger.error(`${name} job failed`, { error: describeError(err) }),
  });
  if (diary.enabled) {
    jobs.diary = new Cron(dailyPattern(diary.time), options("diary"), track(() => runDiaryJob(lilo, logger)));
  }
  if (reflection.enabled) {
    try {
      jobs.reflection = new Cron(reflection.cron, options("reflection"), track(() => runReflectionJob(lilo, logger)));
    } catch (err) {
      jobs.diary?.stop();
      throw new ConfigError(`LILO_REFLECTION_CRON: "${reflection.cron}" is not a valid cron pattern (${describeError(err)})`, { cause: err });
    }
  }
  if (greeting.enabled) {
    try {
      jobs.greeting = new Cron(greeting.cron, options("greeting"), track(() => runGreetingJob(lilo, logger)));
    } catch (err) {
      jobs.diary?.stop();
      jobs.reflection?.stop();
      throw new ConfigError(`LILO_GREETING_CRON: "${greeting.cron}" is not a valid cron pattern (${describeError(err)})`, { cause: err });
    }
  }
  if (lilo.lookups.news.available()) {
    try {
      jobs.feeds = new Cron(lilo.config.lookup.feeds.cron, options("feeds"), track(() => runFeedsJob(lilo, logger)));
    } catch (err) {
      for (const job of Object.values(jobs)) job.stop();
      throw new ConfigError(`LILO_FEEDS_CRON: "${lilo.config.lookup.feeds.cron}" is not a valid cron pattern (${describeError(err)})`, { cause: err });
    }
  }
  for (const [name, job] of Object.entries(jobs)) logger.info(`${name} job scheduled`, { next: job.nextRun()?.toISOString(), timezone });
  return {
    jobs,
    stop: async () => {
      for (const job of Object.values(jobs)) job.stop();
      await Promise.allSettled([...inflight]);
    },
  };
}
