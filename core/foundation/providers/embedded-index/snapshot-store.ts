import { randomUUID } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { Partition } from "./partition.ts";
import { loadSnapshot, removeSnapshot, removeStaleTemps, saveSnapshot, SnapshotWriter, type SnapshotHeader } from "./snapshot.ts";
import { appendBatch, encodeBatch, replayLog, startLog, type LoggedRow } from "./snapshot-log.ts";

/** What the snapshot store reads from the index it saves. */
export interface SnapshotSource {
  parts(): Partition[];
  part(userId: string, store: string): Partition | undefined;
  /** Model record and the last change the RAM copy holds. */
  state(): { dimension: number; embedderId: string; generation: string; lastSeq: number };
  /** Called once changes up to `seq` are on disk (the index prunes SQLite's log behind it). */
  persisted(seq: number): void;
  /** Why a background write failed (it is retried by the next save). */
  failed(err: unknown): void;
}

export interface SnapshotStoreOptions {
  /** The log is folded into a new snapshot once it is larger than the snapshot and at least this many bytes. */
  compactAtBytes?: number;
  /** Bytes written per step of a background snapshot (a few ms of work). */
  chunkBytes?: number;
  /** Rows appended to the log per event-loop turn: more changed rows go out over several turns. */
  appendRows?: number;
}

const DEFAULT_COMPACT_AT = 16 * 2 ** 20;
const DEFAULT_CHUNK = 2 * 2 ** 20;
/** About 2 MB of 384-dimension rows: what piles up while a large snapshot is written goes out in such pieces. */
const DEFAULT_APPEND_ROWS = 5000;

/**
 * Keeps the embedded index's RAM copy on disk with writes in proportion to
 * the changes: a snapshot (`<db>.vectors`) plus a change log beside it
 * (`<db>.vectors.log`) that each save appends the changed rows to. Once the
 * log outgrows the snapshot, a new snapshot is written in the background a
 * chunk at a time (saves wait meanwhile; SQLite's log keeps the changes) and
 * the log starts afresh, so the bytes written stay a small multiple of the
 * bytes changed and no save stalls the bot for long. Loading reads the
 * snapshot and replays the log; whatever the files miss (a crash mid-append)
 * the index catches up from SQLite.
 */
export class SnapshotStore {
  /** Bytes written to snapshot files since start (for `lilo doctor` and the benchmark). */
  bytesWritten = 0;
  private dirty = new Map<string, { userId: string; store: string; rows: Set<number> }>();
  private baseId: string | undefined;
  private baseBytes = 0;
  private logBytes = 0;
  private savedSeq = 0;
  /** Set after a load found a damaged tail: the next append cuts the log there. */
  private validLength: number | undefined;
  private writer: SnapshotWriter | undefined;
  private timer: NodeJS.Immediate | undefined;
  private readonly compactAt: number;
  private readonly chunk: number;
  private readonly appendRows: number;
  /** The rest of a large save, appended on the next turn of the event loop. */
  private appendTimer: NodeJS.Immediate | undefined;

  constructor(
    readonly path: string,
    private readonly source: SnapshotSource,
    opts: SnapshotStoreOptions = {},
  ) {
    this.compactAt = opts.compactAtBytes ?? DEFAULT_COMPACT_AT;
    this.chunk = opts.chunkBytes ?? DEFAULT_CHUNK;
    this.appendRows = opts.appendRows ?? DEFAULT_APPEND_ROWS;
  }

  private get logPath(): string {
    return `${this.path}.log`;
  }

  /** Reads the snapshot and replays its log; undefined when there is none. Throws on a damaged snapshot. */
  load(): { header: SnapshotHeader; partitions: Partition[]; lastSeq: number } | undefined {
    removeStaleTemps(this.path);
    const snap = loadSnapshot(this.path);
    if (!snap) return undefined;
    const { header, partitions } = snap;
    const byKey = new Map(partitions.map((p) => [key(p.userId, p.store), p]));
    let lastSeq = header.lastSeq;
    const log = header.baseId
      ? replayLog(this.logPath, header.baseId, header.lastSeq, header.dimension, (r) => {
          let p = byKey.get(key(r.userId, r.store));
          if (!p && r.int8) {
            p = new Partition(r.userId, r.store, header.dimension);
            byKey.set(key(r.userId, r.store), p);
            partitions.push(p);
          }
          if (r.int8) p!.putInt8(r.rowId, r.int8);
          else p?.remove(r.rowId);
        })
      : undefined;
    if (log) lastSeq = log.lastSeq;
    this.baseId = log ? header.baseId : undefined; // without its log, the next save starts a new snapshot
    this.baseBytes = snap.bytes;
    this.logBytes = log?.validLength ?? 0;
    this.validLength = log && log.validLength < log.length ? log.validLength : undefined;
    this.savedSeq = lastSeq;
    return { header, partitions, lastSeq };
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
  }

  /**
   * Saves what changed since the last save: appended to the log, or — with
   * `full`, or when there is no snapshot to append to — as a new snapshot,
   * written at once (`full`: graphs included) or in the background. More
   * than `appendRows` changed rows (what piled up while a large snapshot was
   * written) go out a piece per turn of the event loop, so no save stalls
   * the bot longer than one piece, however large the index.
   */
  save(full = false): void {
    if (full) {
      this.stopWriter();
      this.writeAtOnce(true);
      return;
    }
    if (this.writer) return; // a background snapshot is being written; SQLite's log holds the changes meanwhile
    if (!this.baseId) return this.startWriter();
    this.appendSome(1);
  }

  /** Appends up to `pieces` pieces of the changed rows; schedules the rest. */
  private appendSome(pieces: number): void {
    this.clearAppendTimer();
    const { lastSeq, dimension } = this.source.state();
    for (let n = 0; n < pieces; n++) {
      if (this.dirty.size === 0 && lastSeq === this.savedSeq) return;
      const rows = this.takeDirty(this.appendRows);
      // A piece with rows still to come claims no progress (`savedSeq` again): after a crash between pieces,
      // the replay stops short of the changes and the index catches them up from SQLite (its log is kept until the last piece).
      const done = this.dirty.size === 0;
      this.append(encodeBatch(this.savedSeq, done ? lastSeq : this.savedSeq, rows, dimension));
      if (!done) continue;
      this.savedSeq = lastSeq;
      this.source.persisted(lastSeq);
      if (this.logBytes > Math.max(this.compactAt, this.baseBytes)) this.startWriter();
      return;
    }
    if (this.dirty.size > 0) this.appendTimer = setImmediate(() => this.appendSome(1));
  }

  /** Up to `max` changed rows with their state now, taken out of the dirty set. */
  private takeDirty(max: number): LoggedRow[] {
    const rows: LoggedRow[] = [];
    for (const [k, d] of this.dirty) {
      const p = this.source.part(d.userId, d.store);
      for (const rowId of d.rows) {
        if (rows.length >= max) return rows;
        rows.push({ userId: d.userId, store: d.store, rowId, int8: p?.int8Of(rowId) });
        d.rows.delete(rowId);
      }
      this.dirty.delete(k);
    }
    return rows;
  }

  private append(batch: Buffer): void {
    appendBatch(this.logPath, batch, this.validLength);
    this.validLength = undefined;
    this.bytesWritten += batch.length;
    this.logBytes += batch.length;
  }

  private clearAppendTimer(): void {
    if (this.appendTimer) clearImmediate(this.appendTimer);
    this.appendTimer = undefined;
  }

  /** On close: finishes a background snapshot at once, then appends what is left. */
  flush(): void {
    if (this.writer) {
      const w = this.writer;
      this.writer = undefined;
      if (this.timer) clearImmediate(this.timer);
      this.timer = undefined;
      w.step(Number.POSITIVE_INFINITY);
      this.installed(w);
    }
    if (this.baseId && !this.writer)
      this.appendSome(Number.POSITIVE_INFINITY); // every piece at once
    else this.save();
  }

  /** Stops background work without saving (close without changes, reset). */
  stop(): void {
    this.stopWriter();
  }

  /** Removes the files (`lilo reindex`). */
  remove(partitions: number): void {
    this.stopWriter();
    removeSnapshot(this.path, partitions);
    this.baseId = undefined;
    this.dirty = new Map();
  }

  private writeAtOnce(withGraphs: boolean): void {
    const s = this.source.state();
    const baseId = randomUUID();
    const bytes = saveSnapshot(this.path, { ...header(s), baseId }, this.source.parts(), withGraphs);
    this.bytesWritten += bytes;
    this.afterNewSnapshot(baseId, bytes, s.lastSeq);
    this.dirty = new Map();
    this.source.persisted(s.lastSeq);
  }

  private startWriter(): void {
    this.clearAppendTimer(); // the new snapshot holds every change so far
    const s = this.source.state();
    // Everything up to lastSeq goes into the new snapshot; rows changed from here on are noted again.
    this.dirty = new Map();
    this.writer = new SnapshotWriter(this.path, { ...header(s), baseId: randomUUID() }, this.source.parts(), false);
    this.scheduleStep();
  }

  private scheduleStep(): void {
    this.timer = setImmediate(() => {
      this.timer = undefined;
      const w = this.writer;
      if (!w) return;
      try {
        if (!w.step(this.chunk)) return this.scheduleStep();
      } catch (err) {
        this.writer = undefined;
        w.abort();
        return this.source.failed(err);
      }
      this.writer = undefined;
      this.installed(w);
      this.save(); // the changes made while it was written
    });
  }

  /** A snapshot written in the background is in place: a new log for it. */
  private installed(w: SnapshotWriter): void {
    this.bytesWritten += w.written;
    this.afterNewSnapshot(w.header.baseId!, w.written, w.header.lastSeq);
  }

  private afterNewSnapshot(baseId: string, bytes: number, lastSeq: number): void {
    const n = startLog(this.logPath, baseId);
    this.bytesWritten += n;
    this.baseId = baseId;
    this.baseBytes = bytes;
    this.logBytes = n;
    this.validLength = undefined;
    this.savedSeq = lastSeq;
  }

  private stopWriter(): void {
    this.clearAppendTimer();
    if (this.timer) clearImmediate(this.timer);
    this.timer = undefined;
    this.writer?.abort();
    this.writer = undefined;
  }

  /** Size of the files now (doctor). */
  sizes(): { snapshot: number; log: number } {
    const size = (p: string) => (existsSync(p) ? statSync(p).size : 0);
    return { snapshot: size(this.path), log: size(this.logPath) };
  }
}

const key = (userId: string, store: string) => `${store}\u0000${userId}`;

function header(s: { dimension: number; embedderId: string; generation: string; lastSeq: number }) {
  return { dimension: s.dimension, embedderId: s.embedderId, generation: s.generation, lastSeq: s.lastSeq };
}
