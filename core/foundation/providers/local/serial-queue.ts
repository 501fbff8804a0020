/**
 * Runs tasks one after another in the order they were pushed; a failing task
 * fails only its own caller. `size` counts the tasks waiting or running.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private count = 0;

  get size(): number {
    return this.count;
  }

  push<T>(task: () => Promise<T>): Promise<T> {
    this.count++;
    const run = this.tail.then(task).finally(() => {
      this.count--;
    });
    // The next task waits for this one whatever its outcome.
    this.tail = run.catch(() => undefined);
    return run;
  }
}
