import { describeError, type Lilo, type Logger } from "../../core/index.ts";

/**
 * How long work may take once the turns in flight were cancelled: long
 * enough for a cancelled turn to unwind, short enough that a supervisor's
 * own stop timeout (systemd's 90 s, Docker's 10 s after the grace) is not hit.
 */
const AFTER_CANCEL_MS = 3_000;

/** What the stop waits for: everything that may still write into the database. */
export interface StopParts {
  lilo: Lilo;
  logger: Logger;
  /** LILO_SHUTDOWN_GRACE_S in milliseconds. */
  graceMs: number;
  /** Stops taking updates and resolves once the work already taken has ended (adapters, jobs, pages, the reindex). */
  stopIntake: () => (Promise<unknown> | undefined)[];
}

/**
 * The graceful stop, the same for every adapter: intake ends, the turns in
 * flight and the after-reply work get the grace time, a turn still running
 * then is cancelled (its message stays unanswered in the inbox, answered
 * after the next start), and only when nothing writes any more does Lilo
 * close: the vector snapshot is flushed, SQLite closed. Resolves false when
 * work outlived the cancel too: the database is then left open for the
 * process's exit (SQLite's journal keeps it whole) rather than closed under
 * a running write.
 */
export async function stopGracefully(p: StopParts): Promise<boolean> {
  const settled = Promise.allSettled(p.stopIntake().map(async (stop) => stop)).then(async (outcomes) => {
    for (const o of outcomes) if (o.status === "rejected") p.logger.error("stopping failed", { error: describeError(o.reason) });
    // After-reply work (extraction, message vectors) that a finished turn registered.
    await p.lilo.idle();
  });
  if (!(await within(settled, p.graceMs))) {
    p.logger.warn("turns still running after the grace time are cancelled; their messages are answered after the next start", {
      graceSeconds: p.graceMs / 1000,
    });
    p.lilo.cancelModelCalls();
    if (!(await within(settled, AFTER_CANCEL_MS))) {
      p.logger.error("work still running after it was cancelled: the database is left to close with the process");
      return false;
    }
  }
  await p.lilo.close();
  return true;
}

/** True when `work` settled within `ms`. */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([work.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The exit code of a process ended by `signal` (the shell's convention: 128 + its number). */
const signalExit = (signal: NodeJS.Signals): number => (signal === "SIGINT" ? 130 : 143);

/**
 * Resolves on the first SIGTERM or SIGINT. From then on a second one ends
 * the process at once: what was acknowledged to a platform is already in
 * the database (the inbox is written before the acknowledgement), so
 * nothing acknowledged is lost; what was running is answered after the
 * next start.
 */
export function firstStopSignal(logger: Logger): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const first = (signal: NodeJS.Signals) => {
      process.off("SIGINT", first);
      process.off("SIGTERM", first);
      const again = (next: NodeJS.Signals) => {
        logger.warn("second stop signal: exiting at once", { signal: next });
        process.exit(signalExit(next));
      };
      process.once("SIGINT", again);
      process.once("SIGTERM", again);
      resolve(signal);
    };
    process.on("SIGINT", first);
    process.on("SIGTERM", first);
  });
}
