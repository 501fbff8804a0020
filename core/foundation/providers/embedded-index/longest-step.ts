import { performance } from "node:perf_hooks";

/**
 * The longest synchronous piece of work measured so far, in wall-clock and
 * CPU milliseconds: what the snapshot costs the event loop (copying rows,
 * a save's bookkeeping), reported by the benchmark. CPU is the process's
 * (helper threads included), so it is an upper bound of the step's own.
 */
export class LongestStep {
  wallMs = 0;
  cpuMs = 0;

  /** Runs `fn` and keeps its time if it is the longest. */
  measure<T>(fn: () => T): T {
    const t = performance.now();
    const c = process.cpuUsage();
    try {
      return fn();
    } finally {
      const cpu = process.cpuUsage(c);
      this.wallMs = Math.max(this.wallMs, performance.now() - t);
      this.cpuMs = Math.max(this.cpuMs, (cpu.user + cpu.system) / 1000);
    }
  }
}
