import { randomUUID } from "node:crypto";
import { VectorIndexError } from "../../errors.ts";
import { existsSync, statSync } from "node:fs";
import { rm } from "node:fs/promises";
import { Partition } from "./partition.ts";
import { otherGraphFiles, loadSnapshot, removeStaleTemps, SnapshotWriter, type SnapshotHeader } from "./snapshot.ts";
import { SerialIo } from "./serial-io.ts";
import { LongestStep } from "./longest-step.ts";
import { appendBatch, encodeBatch, logSeal, replayLog, startLog, type LoggedRow } from "./snapshot-log.ts";
import type { FileSeal, SnapshotKey } from "./seal.ts";
import { plainGraphFiles, type GraphFiles } from "./graph-files.ts";

/** What the snapshot store reads from the index it saves. */
interface SnapshotSource {
  parts(): Partition[];
  part(userId: string, store: string): Partition | undefined;
  /** Model record and the last change the RAM copy holds. */
  state(): { dimension: number; embedderId: string; generation: string; lastSeq: number };
  /** Called once changes up to `seq` are on disk (the index prunes SQLite's log behind it). */
  persisted(seq: number): void;
}

/** Sizes of the snapshot's work (also options of the index). */
export interface SnapshotStoreOptions {
  /** The log is folded into a new snapshot, written in the background, once larger than this and the snapshot. */
  compactAtBytes?: number;
  /** Bytes of a background snapshot copied per turn of the event loop (written off it). */
  snapshotChunkBytes?: number;
  /** Changed rows appended to the snapshot's log per turn of the event loop (more go out over several turns). */
  appendRows?: number;
}

const DEFAULT_COMPACT_AT = 16 * 2 ** 20;
const DEFAULT_CHUNK = 2 ** 20;
/** About 400 kB of 384-dimension rows (a ms or two of copying): what piles up while a large snapshot is written goes out in such pieces. */
const DEFAULT_APPEND_ROWS = 1000;

/**
 * Keeps the embedded index's RAM copy on disk with writes in proportion to
 * the changes: a snapshot (`<db>.vectors`) plus a change log beside it
 * (`<db>.vectors.log`) that each save appends the changed rows to. Once the
 * log outgrows the snapshot, a new snapshot is written in the background
 * (saves wait meanwhile; SQLite's log keeps the changes) and the log starts
 * afresh, so the bytes written stay a small multiple of the bytes changed.
 * No file is written on the event loop: the rows are copied there in
 * bounded pieces and every write, fsync and rename runs asynchronously, one
 * after another in the order asked ({@link SerialIo}); SQLite's change log
 * is pruned only behind what is on disk. Loading reads the snapshot and
 * replays the log; whatever the files miss (a crash mid-write) the index
 * catches up from SQLite. With a key (beside an encrypted database) both
 * files are sealed (seal.ts), and so are the graph files when there is a
 * folder in RAM to seal them through (graph-files.ts); without one no graph
 * file is written and a start builds the graphs again.
 */
export class SnapshotStore {
  /** Bytes written to snapshot files since start (for `lilo doctor` and the benchmark). */
  bytesWritten = 0;
  /** The longest piece of snapshot work done on the event loop (copying rows, a save's bookkeeping; benchmark). */
  readonly longestStep = new LongestStep();
  /** True when the snapshot on disk carries the graphs (written by a save with graphs, not by a background one). */
  graphsSaved = false;
  private dirty: DirtySet = new Map();
  /** The rows a save is appending a piece at a time, and the change they bring the log up to. */
  private pending: { rows: DirtySet; seq: number } | undefined;
  private baseId: string | undefined;
  private baseBytes = 0;
  private logBytes = 0;
  private savedSeq = 0;
  /** Set after a load found a damaged tail: the next append cuts the log there. */
  private validLength: number | undefined;
  private writer: SnapshotWriter | undefined;
  private readonly io = new SerialIo();
  private readonly compactAt: number;
  private readonly chunk: number;
  private readonly appendRows: number;
  /** The rest of a large save, appended on the next turn of the event loop. */
  private appendTimer: NodeJS.Immediate | undefined;
  private failure: unknown;
  /** Set by `flush`: a finished snapshot does not start appending on later turns (the index is closing). */
  private closing = false;
  /** The seal of the current log, kept with the snapshot id it belongs to. */
  private seal: { baseId: string; seal: FileSeal } | undefined;

  constructor(
    readonly path: string,
    private readonly source: SnapshotSource,
    opts: SnapshotStoreOptions = {},
    private readonly key?: SnapshotKey,
    private readonly graphs: GraphFiles = plainGraphFiles,
  ) {
    this.compactAt = opts.compactAtBytes ?? DEFAULT_COMPACT_AT;
    this.chunk = opts.snapshotChunkBytes ?? DEFAULT_CHUNK;
    this.appendRows = opts.appendRows ?? DEFAULT_APPEND_ROWS;
  }

  private get logPath(): string {
    return `${this.path}.log`;
  }

  /** Reads the snapshot and replays its log; undefined when there is none. Throws on a damaged snapshot. */
  load(): { header: SnapshotHeader; partitions: Partition[]; lastSeq: number } | undefined {
    removeStaleTemps(this.path);
    this.closing = false;
    const snap = loadSnapshot(this.path, this.key, this.graphs);
    if (!snap) return undefined;
    const { header, partitions } = snap;
    const byKey = new Map(partitions.map((p) => [key(p.userId, p.store), p]));
    let lastSeq = header.lastSeq;
    const log = header.baseId
      ? replayLog(
          this.logPath,
          header.baseId,
          header.lastSeq,
          header.dimension,
          (r) => {
            let p = byKey.get(key(r.userId, r.store));
            if (!p && r.int8) {
              p = new Partition(r.userId, r.store, header.dimension);
              byKey.set(key(r.userId, r.store), p);
              partitions.push(p);
            }
            if (r.int8) p!.putInt8(r.rowId, r.int8);
            else p?.remove(r.rowId);
          },
          this.key,
        )
      : undefined;
    if (log) lastSeq = log.lastSeq;
    this.baseId = log ? header.baseId : undefined; // without its log, the next save starts a new snapshot
    this.baseBytes = snap.bytes;
    this.logBytes = log?.validLength ?? 0;
    this.validLength = log && log.validLength < log.length ? log.validLength : undefined;
    this.savedSeq = lastSeq;
    this.graphsSaved = header.partitions.some((p) => p.graph);
    return { header, partitions, lastSeq };
  }

  /** Notes why a background write failed: the next save, `saved()` or close raises it (the write is retried by the next save). */
  fail(err: unknown): void {
    this.failure ??= err;
  }

  /** Throws what a background write failed with since the last time, once. */
  private raise(): void {
    const err = this.failure;
    this.failure = undefined;
    if (err) throw new VectorIndexError("Could not write the vector snapshot in the background", { cause: err });
  }

  /** Notes that a row changed in the RAM copy (its state now goes into the next save). */
  touch(userId: string, store: string, rowId: number): void {
    const k = key(userId, store);
    let d = this.dirty.get(k);
    if (!d) this.dirty.set(k, (d = { userId, store, rows: new Set() }));
    d.rows.add(rowId);
  }

  /** The RAM copy was rebuilt from SQLite: the files no longer describe it, the next save writes a new snapshot. */
  invalidate(): void {
    this.stopWriter();
    this.baseId = undefined;
    this.dirty = new Map();
    this.pending = undefined;
  }

  /**
   * Saves what changed since the last save: appended to the log, or — with
   * `withGraphs`, or when there is no snapshot to append to — as a new
   * snapshot written in the background (graphs are written by usearch
   * synchronously: only on close or when asked). More than `appendRows`
   * changed rows (what piled up while a large snapshot was written) are
   * copied a piece per turn of the event loop. Returns at once; `saved()`
   * resolves when the files are written.
   */
  save(withGraphs = false): void {
    this.raise();
    this.timed(() => this.saveNow(withGraphs && this.graphs.enabled));
  }

  private saveNow(withGraphs: boolean): void {
    if (withGraphs) {
      this.stopWriter();
      return this.startWriter(true);
    }
    if (this.writer) return; // a background snapshot is being written; SQLite's log holds the changes meanwhile
    if (!this.baseId) return this.startWriter(false);
    this.appendSome(1);
  }

  /** Bytes written to the files since start and the longest piece of snapshot work on the event loop (benchmark). */
  stats(): { bytesWritten: number; longestStepMs: number; longestStepCpuMs: number } {
    return { bytesWritten: this.bytesWritten, longestStepMs: this.longestStep.wallMs, longestStepCpuMs: this.longestStep.cpuMs };
  }

  /** Resolves once everything saved so far is on disk: a snapshot under way, what follows it, pieces still to come. */
  async saved(): Promise<void> {
    await this.io.drain();
    while (this.appendTimer) {
      await new Promise((r) => setImmediate(r));
      await this.io.drain();
    }
    this.raise();
  }

  /**
   * Appends up to `pieces` pieces of the changed rows; schedules the rest.
   * A save takes the rows changed so far as its set (`pending`); rows changed
   * meanwhile wait for the next save, so a steady stream of changes cannot
   * keep the set from ever being finished. Only the set's last piece claims
   * progress (up to the change the set was taken at): after a crash between
   * pieces, the replay stops short of them and the index catches them up
   * from SQLite, whose log is kept until then.
   */
  private appendSome(pieces: number): void {
    this.clearAppendTimer();
    const { lastSeq, dimension } = this.source.state();
    for (let n = 0; n < pieces; n++) {
      if (!this.pending) {
        if (this.dirty.size === 0 && lastSeq === this.savedSeq) return;
        this.pending = { rows: this.dirty, seq: lastSeq };
        this.dirty = new Map();
      }
      const set = this.pending;
      const rows = this.takeRows(set.rows, this.appendRows);
      const done = set.rows.size === 0;
      this.append(encodeBatch(this.savedSeq, done ? set.seq : this.savedSeq, rows, dimension, this.logSeal()), done ? set.seq : undefined);
      if (!done) continue;
      this.pending = undefined;
      this.savedSeq = set.seq;
      if (this.logBytes > Math.max(this.compactAt, this.baseBytes)) return this.startWriter(false);
    }
    if (this.pending) this.appendTimer = setImmediate(() => this.timed(() => this.appendSome(1)));
  }

  /** The seal of the current snapshot's log; undefined without a key. */
  private logSeal(): FileSeal | undefined {
    if (!this.key || !this.baseId) return undefined;
    if (this.seal?.baseId !== this.baseId) this.seal = { baseId: this.baseId, seal: logSeal(this.key, this.baseId) };
    return this.seal.seal;
  }

  private timed(fn: () => void): void {
    this.longestStep.measure(fn);
  }

  /** Up to `max` rows of a changed set with their state now, taken out of it. */
  private takeRows(set: DirtySet, max: number): LoggedRow[] {
    const rows: LoggedRow[] = [];
    for (const [k, d] of set) {
      const p = this.source.part(d.userId, d.store);
      for (const rowId of d.rows) {
        if (rows.length >= max) return rows;
        rows.push({ userId: d.userId, store: d.store, rowId, int8: p?.int8Of(rowId) });
        d.rows.delete(rowId);
      }
      set.delete(k);
    }
    return rows;
  }

  /** Queues a batch for the log; once it is on disk, SQLite's log may be pruned up to `persisted`. */
  private append(batch: Buffer, persisted: number | undefined): void {
    const cut = this.validLength;
    const baseId = this.baseId;
    this.validLength = undefined;
    this.bytesWritten += batch.length;
    this.logBytes += batch.length;
    this.io.run(
      async () => {
        await appendBatch(this.logPath, batch, cut, persisted !== undefined);
        if (persisted !== undefined && this.baseId === baseId) this.source.persisted(persisted);
      },
      (err) => {
        // The log may now hold a torn batch: later ones would not be replayed. The next save starts a new snapshot.
        if (this.baseId === baseId) this.baseId = undefined;
        // No log at all: another process removed the files (`lilo reindex`); a new snapshot is all it takes.
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") this.fail(err);
      },
    );
  }

  private clearAppendTimer(): void {
    if (this.appendTimer) clearImmediate(this.appendTimer);
    this.appendTimer = undefined;
  }

  /** On close: lets a background snapshot finish, then appends what is left (or writes a snapshot with the graphs). */
  async flush(withGraphs = false): Promise<void> {
    this.closing = true;
    this.clearAppendTimer();
    await this.io.drain();
    if ((withGraphs && this.graphs.enabled) || !this.baseId) this.save(withGraphs);
    await this.io.drain();
    if (this.baseId) this.appendSome(Number.POSITIVE_INFINITY); // every piece at once
    await this.io.drain();
    this.raise();
  }

  /** Stops background work without saving (close without changes, reset); waits for a write under way. */
  async stop(): Promise<void> {
    this.stopWriter();
    await this.io.drain();
  }

  /** Removes the files (`lilo reindex`), after any write under way. */
  remove(): void {
    this.stopWriter();
    this.baseId = undefined;
    this.dirty = new Map();
    this.pending = undefined;
    this.io.run(
      async () => void (await Promise.all([this.path, this.logPath, ...(await otherGraphFiles(this.path, undefined))].map((f) => rm(f, { force: true })))),
      (err) => this.fail(err),
    );
  }

  /** Starts writing a new snapshot of everything up to now, off the event loop; a new log follows it. */
  private startWriter(withGraphs: boolean): void {
    this.clearAppendTimer(); // the new snapshot holds every change so far
    const s = this.source.state();
    // Everything up to lastSeq goes into the new snapshot; rows changed from here on are noted again.
    this.dirty = new Map();
    this.pending = undefined;
    const w = new SnapshotWriter(
      this.path,
      { ...header(s), baseId: randomUUID() },
      this.source.parts(),
      withGraphs,
      this.chunk,
      this.longestStep,
      this.key,
      this.graphs,
    );
    this.writer = w;
    this.io.run(
      async () => {
        if (!(await w.write()) || this.writer !== w) return; // aborted (invalidate, reset): nothing to install
        const n = await startLog(this.logPath, w.header.baseId!, this.key !== undefined);
        // Graphs of the snapshot replaced (none are written with a background snapshot: a start rebuilds them).
        await Promise.all((await otherGraphFiles(this.path, w.header.baseId)).map((f) => rm(f, { force: true })));
        if (this.writer !== w) return;
        this.writer = undefined;
        this.timed(() => this.installed(w, n));
        if (!this.closing) this.save(); // the changes made while it was written
      },
      (err) => {
        if (this.writer === w) this.writer = undefined;
        w.abort();
        this.fail(err);
      },
    );
  }

  /** A snapshot and its new, empty log are on disk. */
  private installed(w: SnapshotWriter, logBytes: number): void {
    this.bytesWritten += w.written + logBytes;
    this.baseId = w.header.baseId;
    this.baseBytes = w.written;
    this.logBytes = logBytes;
    this.validLength = undefined;
    this.savedSeq = w.header.lastSeq;
    this.graphsSaved = w.header.partitions.some((p) => p.graph);
    this.source.persisted(w.header.lastSeq);
  }

  private stopWriter(): void {
    this.clearAppendTimer();
    this.writer?.abort();
    this.writer = undefined;
  }

  /** Size of the files now (doctor). */
  sizes(): { snapshot: number; log: number } {
    const size = (p: string) => (existsSync(p) ? statSync(p).size : 0);
    return { snapshot: size(this.path), log: size(this.logPath) };
  }
}

/** Changed rows per partition. */
type DirtySet = Map<string, { userId: string; store: string; rows: Set<number> }>;

const key = (userId: string, store: string) => `${store}\u0000${userId}`;

function header(s: { dimension: number; embedderId: string; generation: string; lastSeq: number }) {
  return { dimension: s.dimension, embedderId: s.embedderId, generation: s.generation, lastSeq: s.lastSeq };
}
