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
 * Starts the diary, reflection and (when enabled) greeting jobs in this process (docs/spec.md §1: one process
 * for adapters and jobs), in Lilo's time zone. A run never overlaps the
 * previous one (`protect`), and a failure is logged, never thrown.
 */
export function startJobs(lilo: Lilo, logger: Logger): RunningJobs {
  const { timezone } = lilo.config;
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
  const cron = (name: string, variable: string, pattern: string, run: () => Promise<unknown>): Cron => {
    try {
      return new Cron(pattern, options(name), track(run));
    } catch (err) {
      throw new ConfigError(`${variable}: "${pattern}" is not a valid cron pattern (${describeError(err)})`, { cause: err });
    }
  };
  // Diary, reflection and greeting follow the live settings; built again whenever those change.
  const scheduleLive = () => {
    const { diary, reflection, greeting } = lilo.config;
    if (diary.enabled)
      jobs.diary = new Cron(
        dailyPattern(diary.time),
        options("diary"),
        track(() => runDiaryJob(lilo, logger)),
      );
    if (reflection.enabled) jobs.reflection = cron("reflection", "LILO_REFLECTION_CRON", reflection.cron, () => runReflectionJob(lilo, logger));
    if (greeting.enabled) jobs.greeting = cron("greeting", "LILO_GREETING_CRON", greeting.cron, () => runGreetingJob(lilo, logger));
  };
  try {
    scheduleLive();
    if (lilo.lookups.news.available()) jobs.feeds = cron("feeds", "LILO_FEEDS_CRON", lilo.config.lookup.feeds.cron, () => runFeedsJob(lilo, logger));
  } catch (err) {
    for (const job of Object.values(jobs)) job.stop();
    throw err;
  }
  for (const [name, job] of Object.entries(jobs)) logger.info(`${name} job scheduled`, { next: job.nextRun()?.toISOString(), timezone });
  const unsubscribe = lilo.live.onChange((keys) => {
    if (!keys.some((k) => LIVE_SCHEDULE.test(k))) return;
    for (const name of ["diary", "reflection", "greeting"] as const) {
      jobs[name]?.stop();
      delete jobs[name];
    }
    try {
      scheduleLive();
    } catch (err) {
      // A stored value was validated when set; if it still fails, the other jobs keep running.
      logger.error("jobs not rescheduled after a settings change", { keys, error: describeError(err) });
    }
    logger.info("jobs rescheduled after a settings change", {
      keys,
      next: Object.fromEntries(Object.entries(jobs).map(([n, j]) => [n, j.nextRun()?.toISOString()])),
    });
  });
  // The CLI is another process: the settings table is looked at every few seconds.
  // A budget warning held back by quiet hours goes out at the first poll after them.
  const poll = setInterval(() => {
    try {
      lilo.live.refresh();
    } catch (err) {
      logger.error("live settings not read", { error: describeError(err) });
    }
    lilo.usage.checkBudget().catch((err: unknown) => logger.error("budget warning not sent", { error: describeError(err) }));
  }, lilo.config.live.pollSeconds * 1000);
  poll.unref();
  return {
    jobs,
    stop: async () => {
      clearInterval(poll);
      unsubscribe();
      for (const job of Object.values(jobs)) job.stop();
      await Promise.allSettled([...inflight]);
    },
  };
}

/** Live settings whose change means building the jobs again. */
const LIVE_SCHEDULE = /^(diary\.(enabled|time)|reflection\.(enabled|cron)|greeting\.(enabled|cron))$/;
