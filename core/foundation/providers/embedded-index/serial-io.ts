/**
 * A queue of file operations run one after another off the event loop's
 * critical path: each operation is asynchronous (node:fs/promises, so the
 * writes, fsyncs and renames run on libuv's thread pool), and the next one
 * starts when the one before has finished. The snapshot files need both:
 * no synchronous write stalls the bot, and the order of appends, snapshot
 * and new log stays the order they were asked for.
 */
export class SerialIo {
  private tail: Promise<void> = Promise.resolve();
  private pending = 0;

  /** Queues `op`; a failure goes to `failed` and the queue goes on with the next operation. */
  run(op: () => Promise<void>, failed: (err: unknown) => void): void {
    this.pending++;
    this.tail = this.tail
      .then(op)
      .catch(failed)
      .finally(() => void this.pending--);
  }

  /** True while an operation is queued or running. */
  get busy(): boolean {
    return this.pending > 0;
  }

  /** Resolves once the queue is empty, operations queued meanwhile included. */
  async drain(): Promise<void> {
    while (this.pending > 0) await this.tail;
  }
}
