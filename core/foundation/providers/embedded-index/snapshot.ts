import { randomUUID } from "node:crypto";
import { closeSync, existsSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { Partition } from "./partition.ts";
import { PRIVATE_FILE_MODE, makePrivate } from "../../util/file-modes.ts";

/** Version 1: per partition all row ids, then all int8 vectors (read for upgrades, no longer written). */
const MAGIC_V1 = "LILOVIX1";
/** Version 2: per partition one record per row (float64 row id + int8 vector), then rows moved while writing. */
const MAGIC_V2 = "LILOVIX2";

/** What a snapshot file says about itself. */
export interface SnapshotHeader {
  dimension: number;
  embedderId: string;
  generation: string;
  /** The last change (sequence number in SQLite's log) the snapshot contains. */
  lastSeq: number;
  /** Random id of this file: its change log (snapshot-log.ts) names it. */
  baseId?: string;
  partitions: { userId: string; store: string; count: number; graph: boolean }[];
}

/**
 * Writes the RAM copy next to the database a chunk at a time, so a large
 * copy (hundreds of MB at a million vectors) is written between other work
 * instead of stalling the bot: a JSON header, then per partition one record
 * per row. Each chunk writes whole records, so every record is one row's
 * state at some moment while writing; what changes meanwhile is in the
 * change log after `lastSeq` (the header's). One case needs help: a
 * removal moves the partition's last row into the freed slot, and when that
 * moves a row from the part not yet written into the part already written,
 * the row would be missed — such rows are written at the end. Graphs go to
 * their own files in usearch's format (only when written at once). Written
 * to a temporary file and renamed: a crash leaves the old snapshot or the new
 * one, never half of one.
 */
export class SnapshotWriter {
  readonly header: SnapshotHeader;
  /** Bytes written so far. */
  written = 0;
  private readonly fd: number;
  private readonly tmp: string;
  private part = 0;
  private slot = 0;
  private readonly moved: { part: number; rowId: number }[] = [];
  private closed = false;

  constructor(
    private readonly path: string,
    header: Omit<SnapshotHeader, "partitions">,
    private readonly parts: Partition[],
    withGraphs: boolean,
  ) {
    this.header = {
      ...header,
      partitions: parts.map((p) => ({ userId: p.userId, store: p.store, count: p.count, graph: withGraphs && p.hasGraph })),
    };
    this.tmp = tempPath(path);
    this.fd = openSync(this.tmp, "w", PRIVATE_FILE_MODE);
    const json = Buffer.from(JSON.stringify(this.header));
    const head = Buffer.alloc(MAGIC_V2.length + 4);
    head.write(MAGIC_V2, 0);
    head.writeUInt32LE(json.length, MAGIC_V2.length);
    this.write(Buffer.concat([head, json]));
    parts.forEach((p, i) => (p.onMove = (rowId, from, to) => this.noteMove(i, rowId, from, to)));
  }

  /** Writes up to about `bytes` more; true once the snapshot is complete and in place. */
  step(bytes: number): boolean {
    let budget = bytes;
    while (this.part < this.parts.length && budget > 0) {
      const p = this.parts[this.part]!;
      const count = this.header.partitions[this.part]!.count;
      const rec = 8 + p.dimension;
      const n = Math.min(count - this.slot, Math.max(1, Math.floor(budget / rec)));
      if (n > 0) {
        this.write(records(p, this.slot, n));
        this.slot += n;
        budget -= n * rec;
      }
      if (this.slot >= count) {
        this.part++;
        this.slot = 0;
      }
    }
    if (this.part < this.parts.length) return false;
    this.finish();
    return true;
  }

  /** Stops writing and removes the temporary file (the old snapshot stays). */
  abort(): void {
    if (this.closed) return;
    this.release();
    rmSync(this.tmp, { force: true });
  }

  private noteMove(part: number, rowId: number, from: number, to: number): void {
    const done = part < this.part ? Number.POSITIVE_INFINITY : part === this.part ? this.slot : 0;
    if (to < done && from >= done) this.moved.push({ part, rowId });
  }

  private finish(): void {
    // Rows moved into the written part: their state now, with their partition's index.
    const rows = this.moved.flatMap(({ part, rowId }) => {
      const v = this.parts[part]!.int8Of(rowId);
      return v ? [{ part, rowId, v }] : [];
    });
    const dim = this.header.dimension;
    const tail = Buffer.alloc(4 + rows.length * (12 + dim));
    tail.writeUInt32LE(rows.length, 0);
    rows.forEach((r, i) => {
      const o = 4 + i * (12 + dim);
      tail.writeUInt32LE(r.part, o);
      tail.writeDoubleLE(r.rowId, o + 4);
      tail.set(new Uint8Array(r.v.buffer, r.v.byteOffset, dim), o + 12);
    });
    this.write(tail);
    this.release();
    this.parts.forEach((p, i) => {
      if (!this.header.partitions[i]!.graph) return;
      p.saveGraph(graphPath(this.path, i));
      makePrivate(graphPath(this.path, i)); // usearch writes with the default mode; the vectors are the user's
    });
    renameSync(this.tmp, this.path);
  }

  private release(): void {
    this.closed = true;
    for (const p of this.parts) p.onMove = undefined;
    closeSync(this.fd);
  }

  private write(b: Uint8Array): void {
    writeSync(this.fd, b);
    this.written += b.length;
  }
}

/** `n` records of a partition from `slot` on: float64 row id + int8 vector each. */
function records(p: Partition, slot: number, n: number): Buffer {
  const d = p.dimension;
  const out = Buffer.alloc(n * (8 + d));
  for (let i = 0; i < n; i++) {
    out.writeDoubleLE(p.rowIds[slot + i]!, i * (8 + d));
    out.set(new Uint8Array(p.data.buffer, p.data.byteOffset + (slot + i) * d, d), i * (8 + d) + 8);
  }
  return out;
}

/** Writes the whole snapshot at once (on close, after a graph build: graphs included). Returns the bytes written. */
export function saveSnapshot(path: string, header: Omit<SnapshotHeader, "partitions">, partitions: Partition[], withGraphs = true): number {
  const w = new SnapshotWriter(path, header, partitions, withGraphs);
  try {
    w.step(Number.POSITIVE_INFINITY);
  } catch (err) {
    w.abort();
    throw err;
  }
  return w.written;
}

/** Reads a snapshot; undefined when there is none. Throws on a damaged file (the caller rebuilds). */
export function loadSnapshot(path: string): { header: SnapshotHeader; partitions: Partition[]; bytes: number } | undefined {
  if (!existsSync(path)) return undefined;
  const buf = readFileSync(path);
  const magic = buf.subarray(0, MAGIC_V2.length).toString();
  if (magic !== MAGIC_V1 && magic !== MAGIC_V2) throw new Error(`${path} is not a Lilo vector snapshot`);
  const len = buf.readUInt32LE(MAGIC_V2.length);
  let off = MAGIC_V2.length + 4;
  const header = JSON.parse(buf.subarray(off, off + len).toString()) as SnapshotHeader;
  off += len;
  const d = header.dimension;
  const partitions = header.partitions.map((h) => {
    const ids = new Float64Array(h.count);
    const data = new Int8Array(h.count * d);
    const size = h.count * (8 + d);
    if (off + size > buf.length) throw new Error(`${path} is truncated`);
    if (magic === MAGIC_V1) {
      new Uint8Array(ids.buffer).set(buf.subarray(off, off + h.count * 8));
      new Uint8Array(data.buffer).set(buf.subarray(off + h.count * 8, off + size));
    } else {
      // One Buffer view over the partition's vectors and a native copy per record: no object per row.
      const into = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      for (let i = 0, o = off; i < h.count; i++, o += 8 + d) {
        ids[i] = buf.readDoubleLE(o);
        buf.copy(into, i * d, o + 8, o + 8 + d);
      }
    }
    off += size;
    return Partition.from(h.userId, h.store, d, ids, data);
  });
  if (magic === MAGIC_V2) {
    if (off + 4 > buf.length) throw new Error(`${path} is truncated`);
    const moved = buf.readUInt32LE(off);
    off += 4;
    if (off + moved * (12 + d) > buf.length) throw new Error(`${path} is truncated`);
    for (let i = 0; i < moved; i++, off += 12 + d) {
      partitions[buf.readUInt32LE(off)]?.putInt8(buf.readDoubleLE(off + 4), new Int8Array(buf.buffer, buf.byteOffset + off + 12, d));
    }
  }
  // A graph that cannot be loaded is rebuilt by the index from the int8 vectors.
  header.partitions.forEach((h, i) => {
    if (h.graph && existsSync(graphPath(path, i))) partitions[i]!.loadGraph(graphPath(path, i));
  });
  return { header, partitions, bytes: buf.length };
}

/** Removes a snapshot, its change log and its graph files. */
export function removeSnapshot(path: string, partitions = 0): void {
  rmSync(path, { force: true });
  rmSync(`${path}.log`, { force: true });
  for (let i = 0; i < partitions; i++) rmSync(graphPath(path, i), { force: true });
}

/**
 * A temporary file name of this writer: the process id (so a start can clear
 * what a dead process left) and a random part (two indexes in one process).
 */
export function tempPath(path: string): string {
  return `${path}.${process.pid}-${randomUUID().slice(0, 8)}.tmp`;
}

/** Removes temporary snapshot files that processes no longer running left behind (a crash mid-write). */
export function removeStaleTemps(path: string): void {
  const dir = dirname(path);
  const prefix = `${basename(path)}.`;
  for (const f of readdirSync(dir)) {
    const m = f.startsWith(prefix) ? /\.(\d+)-[0-9a-f]+\.tmp$/.exec(f) : null;
    if (m && !alive(Number(m[1]))) rmSync(join(dir, f), { force: true });
  }
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM"; // exists, owned by someone else
  }
}

function graphPath(path: string, i: number): string {
  return `${path}.graph${i}`;
}
