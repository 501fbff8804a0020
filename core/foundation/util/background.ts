import type { Logger } from "../ports/logger.ts";
import { describeError } from "../errors.ts";

/**
 * Work that runs after the answer went out (extraction, checks). Failures are
 * logged, never lost silently; `idle()` lets tests and shutdown wait for it.
 */
export class BackgroundTasks {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly logger: Logger) {}

  run(name: string, task: () => Promise<void>): void {
    const p = (async () => {
      try {
        await task();
      } catch (err) {
        this.logger.error(`background task ${name} failed`, { error: describeError(err) });
      }
    })();
    this.running.add(p);
    void p.finally(() => this.running.delete(p));
  }

  /** Resolves when every task started so far (and any they started) has finished. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}
