import type { Clock } from "../ports/clock.ts";
import type { Logger } from "../ports/logger.ts";
import type { Job, JobsStore } from "../store/jobs.ts";
import type { BackgroundTasks } from "./background.ts";
import { LiloError, describeError } from "../errors.ts";

/** Runs one kind of stored job; throws to have it tried again. */
type JobHandler = (job: Job) => Promise<void>;

/**
 * Executes the after-reply jobs recorded in SQLite: each in the background,
 * marked done when it finishes, tried again (up to `maxAttempts`, counted
 * before each start, so a job that crashes the process is not retried
 * forever) when it fails or the process died while it ran.
 */
export class DurableJobs {
  private readonly handlers = new Map<string, JobHandler>();
  /** Jobs running in this process, so a resume does not start them twice. */
  private readonly running = new Set<number>();

  constructor(
    private readonly store: JobsStore,
    private readonly background: BackgroundTasks,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly maxAttempts: number,
  ) {}

  /** The budget's cap held a job back and that was logged; reset once a job runs again. */
  private waitLogged = false;

  register(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  /** Starts every pending job that is not running yet (after a turn, and once on start). */
  runPending(): number {
    let started = 0;
    for (const job of this.store.pending()) {
      if (this.running.has(job.id)) continue;
      this.running.add(job.id);
      started++;
      this.background.run(job.kind, () => this.execute(job));
    }
    return started;
  }

  private async execute(job: Job): Promise<void> {
    const now = () => this.clock.now().toISOString();
    try {
      const handler = this.handlers.get(job.kind);
      if (!handler) {
        this.store.failed(job.id, `no handler for jobs of kind "${job.kind}"`, now(), true);
        this.logger.error("stored job has no handler", { jobId: job.id, kind: job.kind });
        return;
      }
      if (job.attempts >= this.maxAttempts) {
        this.store.failed(job.id, "gave up: the process stopped during every attempt", now(), true);
        this.logger.error("stored job gave up", { jobId: job.id, kind: job.kind });
        return;
      }
      this.store.started(job.id, now());
      try {
        await handler(job);
        this.store.done(job.id, now());
        this.waitLogged = false;
      } catch (err) {
        if (err instanceof LiloError && err.code === "budget-spent") return this.postpone(job, err);
        const final = job.attempts + 1 >= this.maxAttempts;
        this.store.failed(job.id, describeError(err), now(), final);
        this.logger.error(`job ${job.kind} failed${final ? "; giving up" : "; it runs again on the next start"}`, { jobId: job.id, error: describeError(err) });
      }
    } finally {
      this.running.delete(job.id);
    }
  }

  /** A job the budget's cap refused stays pending, its attempt not counted: it runs once the cap is lifted or the budget renews (logged once). */
  private postpone(job: Job, err: LiloError): void {
    this.store.postponed(job.id, describeError(err), this.clock.now().toISOString());
    if (this.waitLogged) return;
    this.waitLogged = true;
    this.logger.info("after-reply jobs wait: the budget is spent; they run once it renews or /budget lifts it for today", { jobId: job.id, kind: job.kind });
  }
}
