import type { VectorTable } from "../../store/vectors/vector-table.ts";

/** Change-log entries deleted per turn of the event loop (a few ms of SQLite work, its commit included). */
const PRUNE_ROWS = 2000;

/**
 * Prunes SQLite's vector change log behind what the snapshot files hold, a
 * bounded number of entries per turn of the event loop: after a large
 * snapshot, hundreds of thousands of entries may be due, and one DELETE of
 * them all would stall the bot as a synchronous file write did.
 */
export class LogPruner {
  private target = 0;
  private timer: NodeJS.Immediate | undefined;

  constructor(
    private readonly table: () => VectorTable | undefined,
    /** Entries kept behind the snapshot, so another process a little behind catches up without a reload. */
    private readonly keep: number,
    /** Told of a failure (the snapshot store: the next save raises it); pruning is only ever asked for with a snapshot. */
    private readonly failures: { fail(err: unknown): void } | undefined,
  ) {}

  /** Changes up to `seq` are on disk: entries more than `keep` behind it may go. */
  persisted(seq: number): void {
    this.target = Math.max(this.target, seq - this.keep);
    if (!this.timer) this.step();
  }

  /** Stops pruning (close); what is left is pruned after the next save. */
  stop(): void {
    if (this.timer) clearImmediate(this.timer);
    this.timer = undefined;
  }

  private step(): void {
    this.timer = undefined;
    try {
      if (this.table()?.prune(this.target, PRUNE_ROWS)) this.timer = setImmediate(() => this.step());
    } catch (err) {
      if (!this.failures) throw err;
      this.failures.fail(err); // the log is only longer meanwhile
    }
  }
}
