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
   * Waits until nothing runs (work started meanwhile included). How long
   * that may take is the app's stop to decide: it cancels the turns still
   * running after LILO_SHUTDOWN_GRACE_S.
   */
  async idle(): Promise<void> {
    // Failures were reported where the work ran; here only the end counts.
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
