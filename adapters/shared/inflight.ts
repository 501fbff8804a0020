/**
 * Work an adapter has started and not finished (a model call, a send). An
 * adapter's `stop` waits for it, so Lilo's database is not closed under a
 * running turn and no message is half sent on shutdown.
 */
export class InFlight {
  private readonly running = new Set<Promise<unknown>>();

  /** Remembers `work` until it settles; returns it unchanged. */
  track<T>(work: Promise<T>): Promise<T> {
    this.running.add(work);
    const done = () => this.running.delete(work);
    work.then(done, done);
    return work;
  }

  /** How many pieces of work are running. */
  get size(): number {
    return this.running.size;
  }

  /**
   * Waits until nothing runs (work started meanwhile included), at most
   * `timeoutMs`. Resolves true when everything finished in time.
   */
  async drain(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.running.size > 0) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, left)));
      // Failures were reported where the work ran; here only the end counts.
      await Promise.race([Promise.allSettled([...this.running]), timeout]);
      clearTimeout(timer);
    }
    return true;
  }
}
