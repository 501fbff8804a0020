import { closeSync, existsSync, fstatSync, openSync, readdirSync, readSync, rmSync } from "node:fs";
import { open, readdir, rename, rm, type FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { LongestStep } from "./longest-step.ts";
import { Partition } from "./partition.ts";
import { PRIVATE_FILE_MODE } from "../../util/file-modes.ts";
import { VectorIndexError } from "../../errors.ts";
import { FileSeal, SALT_BYTES, type SnapshotKey } from "./seal.ts";
import { alive } from "./pid-alive.ts";
import { tempPath } from "./temp-path.ts";
import { plainGraphFiles, type GraphFiles } from "./graph-files.ts";

/** Version 1: per partition all row ids, then all int8 vectors (read for upgrades, no longer written). */
const MAGIC_V1 = "LILOVIX1";
/** Version 2: per partition one record per row (float64 row id + int8 vector), then rows moved while writing. */
const MAGIC_V2 = "LILOVIX2";
/**
 * Sealed (beside an encrypted database, seal.ts): the magic, the file's salt,
 * then records of u32 length + sealed bytes whose plain texts, joined, are a
 * version 2 file. Each record's additional data is its index and whether it is
 * the last, so records cannot be reordered, dropped or cut off unnoticed.
 */
const MAGIC_SEALED = "LILOVSX1";

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
 * Writes the RAM copy next to the database without stalling the bot: a
 * large copy (hundreds of MB at a million vectors) is taken a chunk at a
 * time on the event loop (a few ms of copying each) and each chunk is
 * written off it (node:fs/promises), the next chunk taken once the one
 * before is written. The file: a JSON header, then per partition one record
 * per row. Each chunk holds whole records, so every record is one row's
 * state at some moment while writing; what changes meanwhile is in the
 * change log after `lastSeq` (the header's). One case needs help: a
 * removal moves the partition's last row into the freed slot, and when that
 * moves a row from the part not yet taken into the part already taken, the
 * row would be missed — such rows are written at the end. Graphs go to
 * their own files (graph-files.ts: usearch's format, or sealed through a
 * folder in RAM), only when asked for: usearch writes them synchronously, so
 * only on close. Written to a temporary file,
 * fsynced, then renamed: a crash at any moment leaves the old snapshot or
 * the new one, never half of one.
 */
export class SnapshotWriter {
  readonly header: SnapshotHeader;
  /** Bytes written so far. */
  written = 0;
  private readonly tmp: string;
  private part = 0;
  private slot = 0;
  private readonly moved: { part: number; rowId: number }[] = [];
  private released = false;
  private aborted = false;
  private readonly seal: FileSeal | undefined;
  private records = 0;

  constructor(
    private readonly path: string,
    header: Omit<SnapshotHeader, "partitions">,
    private readonly parts: Partition[],
    withGraphs: boolean,
    private readonly chunkBytes: number,
    private readonly steps?: LongestStep,
    key?: SnapshotKey,
    private readonly graphs: GraphFiles = plainGraphFiles,
  ) {
    this.seal = key ? FileSeal.create(key) : undefined;
    this.header = {
      ...header,
      partitions: parts.map((p) => ({ userId: p.userId, store: p.store, count: p.count, graph: withGraphs && graphs.enabled && p.hasGraph })),
    };
    this.tmp = tempPath(path);
    parts.forEach((p, i) => (p.onMove = (rowId, from, to) => this.noteMove(i, rowId, from, to)));
  }

  /** Writes the snapshot and puts it in place; false when aborted meanwhile (the old snapshot stays). */
  async write(): Promise<boolean> {
    if (this.aborted) return false; // stopped while waiting for its turn in the queue
    let installed = false;
    const fh = await open(this.tmp, "w", PRIVATE_FILE_MODE);
    try {
      await this.put(fh, this.head());
      for (let chunk = this.take(); chunk && !this.aborted; chunk = this.take()) await this.put(fh, chunk);
      if (this.aborted) return false;
      const tail = this.tail();
      this.release(); // every row is taken: moves no longer matter
      await this.put(fh, tail, true);
      await fh.datasync(); // the data is on disk before the name points at it
      if (this.aborted) return false;
      this.saveGraphs();
      await rename(this.tmp, this.path);
      installed = true;
      return true;
    } finally {
      this.release();
      await fh.close();
      if (!installed) await rm(this.tmp, { force: true });
    }
  }

  /** Stops writing at the next chunk; the temporary file is removed (the old snapshot stays). */
  abort(): void {
    this.aborted = true;
    this.release();
  }

  private head(): Buffer {
    const json = Buffer.from(JSON.stringify(this.header));
    const head = Buffer.alloc(MAGIC_V2.length + 4);
    head.write(MAGIC_V2, 0);
    head.writeUInt32LE(json.length, MAGIC_V2.length);
    return Buffer.concat([head, json]);
  }

  /** Copies up to about `chunkBytes` more records (on the event loop, a few ms); undefined once every row is taken. */
  private take(): Buffer | undefined {
    return this.steps ? this.steps.measure(() => this.copyChunk()) : this.copyChunk();
  }

  private copyChunk(): Buffer | undefined {
    if (this.part >= this.parts.length) return undefined;
    const out = Buffer.allocUnsafe(Math.max(this.chunkBytes, 8 + this.header.dimension));
    let used = 0;
    while (this.part < this.parts.length) {
      const p = this.parts[this.part]!;
      const count = this.header.partitions[this.part]!.count;
      const n = Math.min(count - this.slot, Math.floor((out.length - used) / (8 + p.dimension)));
      if (n <= 0 && this.slot < count) break; // the chunk is full
      used = records(p, this.slot, n, out, used);
      this.slot += n;
      if (this.slot >= count) {
        this.part++;
        this.slot = 0;
      }
    }
    return out.subarray(0, used);
  }

  private noteMove(part: number, rowId: number, from: number, to: number): void {
    const done = part < this.part ? Number.POSITIVE_INFINITY : part === this.part ? this.slot : 0;
    if (to < done && from >= done) this.moved.push({ part, rowId });
  }

  /** Rows moved into the taken part: their state now, with their partition's index. */
  private tail(): Buffer {
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
    return tail;
  }

  private saveGraphs(): void {
    this.parts.forEach((p, i) => {
      if (!this.header.partitions[i]!.graph) return;
      this.graphs.save(p, graphPath(this.path, i, this.header.baseId), { baseId: this.header.baseId, index: i, userId: p.userId, store: p.store });
    });
  }

  private release(): void {
    if (this.released) return;
    this.released = true;
    for (const p of this.parts) p.onMove = undefined;
  }

  private async put(fh: FileHandle, plain: Buffer, last = false): Promise<void> {
    const b = this.seal ? this.sealed(plain, last) : plain;
    let off = 0;
    while (off < b.length) off += (await fh.write(b, off, b.length - off)).bytesWritten;
    this.written += b.length;
  }

  /** A record of the sealed file (with the magic and salt before the first). */
  private sealed(plain: Buffer, last: boolean): Buffer {
    const seal = this.seal!;
    const record = seal.seal(plain, recordAad(this.records, last));
    const length = Buffer.alloc(4);
    length.writeUInt32LE(record.length, 0);
    const start = this.records++ === 0 ? [Buffer.from(MAGIC_SEALED), seal.salt] : [];
    return Buffer.concat([...start, length, record]);
  }
}

/** What a sealed record's tag also covers: its place in the file and whether it is the last one. */
function recordAad(index: number, last: boolean): Buffer {
  const aad = Buffer.alloc(5);
  aad.writeUInt32LE(index, 0);
  aad[4] = last ? 1 : 0;
  return aad;
}

/**
 * The plain records of the sealed snapshot open as `fd`, in order, each read
 * and opened only when the reader reaches it: no copy of the whole file is
 * held beside the vectors taken from it, and the sealed bytes pass through
 * one reused buffer. Throws when the key is another, a record was altered,
 * moved or dropped, or the file ends before its last record.
 */
function* unsealed(path: string, fd: number, size: number, key: SnapshotKey | undefined): Generator<Buffer, void, undefined> {
  if (!key) throw new VectorIndexError(`${path} is sealed and no data key is configured`);
  let off = MAGIC_SEALED.length + SALT_BYTES;
  if (off > size) throw new VectorIndexError(`${path} is truncated`);
  const seal = FileSeal.of(key, readAt(fd, Buffer.allocUnsafe(SALT_BYTES), SALT_BYTES, MAGIC_SEALED.length));
  const length = Buffer.allocUnsafe(4);
  let sealed = Buffer.allocUnsafe(0);
  for (let i = 0; ; i++) {
    if (off + 4 > size) throw new VectorIndexError(`${path} is truncated`);
    const n = readAt(fd, length, 4, off).readUInt32LE(0);
    const end = off + 4 + n;
    if (end > size) throw new VectorIndexError(`${path} is truncated`);
    if (sealed.length < n) sealed = Buffer.allocUnsafe(n);
    readAt(fd, sealed, n, off + 4);
    off = end;
    const last = off === size;
    let plain: Buffer;
    try {
      plain = seal.open(sealed.subarray(0, n), recordAad(i, last));
    } catch (err) {
      throw new VectorIndexError(`${path} does not open with the data key (another key, or the file was altered or cut off)`, { cause: err });
    }
    yield plain;
    if (last) return;
  }
}

/** Reads `n` bytes at `at` into `buf`; the buffer, filled. */
function readAt(fd: number, buf: Buffer, n: number, at: number): Buffer {
  for (let got = 0; got < n;) {
    const r = readSync(fd, buf, got, n - got, at + got);
    if (r === 0) throw new VectorIndexError(`the vector snapshot ended early`);
    got += r;
  }
  return buf;
}

/** A snapshot read back: its header, its partitions and the file's size. */
interface LoadedSnapshot {
  header: SnapshotHeader;
  partitions: Partition[];
  bytes: number;
}

/** Copies `n` records of a partition from `slot` on (float64 row id + int8 vector each) into `out` at `at`; returns the end. */
function records(p: Partition, slot: number, n: number, out: Buffer, at: number): number {
  const d = p.dimension;
  for (let i = 0; i < n; i++, at += 8 + d) {
    out.writeDoubleLE(p.rowIds[slot + i]!, at);
    out.set(new Uint8Array(p.data.buffer, p.data.byteOffset + (slot + i) * d, d), at + 8);
  }
  return at;
}

/**
 * Reads a snapshot, unsealing it with `key` (seal.ts), and its graphs through
 * `graphs`; undefined when there is none. Throws on a damaged file, a sealed
 * one without the key or with another, and a plain one when a key is given (a
 * leftover from before encryption): the caller rebuilds, and the next snapshot
 * replaces the file.
 */
export function loadSnapshot(path: string, key?: SnapshotKey, graphs: GraphFiles = plainGraphFiles): LoadedSnapshot | undefined {
  if (!existsSync(path)) return undefined;
  const fd = openSync(path, "r");
  try {
    return readSnapshot(path, fd, key, graphs);
  } finally {
    closeSync(fd);
  }
}

function readSnapshot(path: string, fd: number, key: SnapshotKey | undefined, graphs: GraphFiles): LoadedSnapshot {
  const size = fstatSync(fd).size;
  const head = readAt(fd, Buffer.alloc(MAGIC_SEALED.length), Math.min(MAGIC_SEALED.length, size), 0);
  const isSealed = head.toString() === MAGIC_SEALED;
  if (key && !isSealed) throw new VectorIndexError(`${path} is not sealed, and the database is encrypted`);
  // A sealed file is read a record at a time without joining them: each record holds whole rows (SnapshotWriter).
  const pieces = isSealed ? unsealed(path, fd, size, key) : [readAt(fd, Buffer.allocUnsafe(size), size, 0)].values();
  const first = pieces.next();
  if (first.done) throw new Error(`${path} is truncated`);
  const buf = first.value;
  const magic = buf.subarray(0, MAGIC_V2.length).toString();
  if (magic !== MAGIC_V1 && magic !== MAGIC_V2) throw new Error(`${path} is not a Lilo vector snapshot`);
  const len = buf.readUInt32LE(MAGIC_V2.length);
  let off = MAGIC_V2.length + 4;
  const header = JSON.parse(buf.subarray(off, off + len).toString()) as SnapshotHeader;
  off += len;
  const d = header.dimension;
  if (magic === MAGIC_V1) return { header, partitions: readV1(path, header, buf, off), bytes: size };
  const at = new Cursor(path, buf, pieces, off);
  const partitions = header.partitions.map((h) => {
    const ids = new Float64Array(h.count);
    const data = new Int8Array(h.count * d);
    // One Buffer view over the partition's vectors and a native copy per record: no object per row.
    const into = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    for (let i = 0; i < h.count; i++) {
      const [b, o] = at.take(8 + d);
      ids[i] = b.readDoubleLE(o);
      b.copy(into, i * d, o + 8, o + 8 + d);
    }
    return Partition.from(h.userId, h.store, d, ids, data);
  });
  const [cb, co] = at.take(4);
  const moved = cb.readUInt32LE(co);
  for (let i = 0; i < moved; i++) {
    const [b, o] = at.take(12 + d);
    partitions[b.readUInt32LE(o)]?.putInt8(b.readDoubleLE(o + 4), new Int8Array(b.buffer, b.byteOffset + o + 12, d));
  }
  // Graphs are loaded after the start (the index's graph upkeep); one that cannot be is rebuilt from the int8 vectors.
  header.partitions.forEach((h, i) => {
    const file = graphPath(path, i, header.baseId);
    const p = partitions[i]!;
    if (h.graph && existsSync(file))
      p.deferGraph(() => {
        if (existsSync(file)) graphs.load(p, file, { baseId: header.baseId, index: i, userId: h.userId, store: h.store });
      });
  });
  // Every record after the last row is opened too: a sealed file is used only when all of it is as written.
  for (let r = pieces.next(); !r.done; r = pieces.next());
  return { header, partitions, bytes: size };
}

/** Version 1's partitions (every row id, then every vector, per partition) from `off` of the whole file. */
function readV1(path: string, header: SnapshotHeader, buf: Buffer, off: number): Partition[] {
  const d = header.dimension;
  return header.partitions.map((h) => {
    const ids = new Float64Array(h.count);
    const data = new Int8Array(h.count * d);
    const size = h.count * (8 + d);
    if (off + size > buf.length) throw new Error(`${path} is truncated`);
    new Uint8Array(ids.buffer).set(buf.subarray(off, off + h.count * 8));
    new Uint8Array(data.buffer).set(buf.subarray(off + h.count * 8, off + size));
    off += size;
    return Partition.from(h.userId, h.store, d, ids, data);
  });
}

/** Reads a version 2 file's rows from pieces that each hold whole records (a sealed file's records, or the whole plain file). */
class Cursor {
  constructor(
    private readonly path: string,
    private piece: Buffer | undefined,
    private readonly pieces: Iterator<Buffer, void>,
    private off: number,
  ) {}

  /** The piece holding the next `n` bytes and where they start in it; throws when the file ends first. */
  take(n: number): [Buffer, number] {
    while (this.piece && this.off >= this.piece.length) {
      const next = this.pieces.next();
      this.piece = next.done ? undefined : next.value;
      this.off = 0;
    }
    const piece = this.piece;
    if (!piece || this.off + n > piece.length) throw new Error(`${this.path} is truncated`);
    const at = this.off;
    this.off += n;
    return [piece, at];
  }
}

/**
 * Graph files beside the snapshot `path` that do not belong to the snapshot
 * `baseId` (all of them without one): left by an older snapshot, or by a
 * crash between writing a snapshot's graphs and renaming it into place.
 */
export async function otherGraphFiles(path: string, baseId: string | undefined): Promise<string[]> {
  const prefix = `${basename(path)}.`;
  const own = baseId ? `${prefix}${baseId}.graph` : undefined;
  return (await readdir(dirname(path)))
    .filter((f) => f.startsWith(prefix) && /\.graph\d+$/.test(f) && !(own && f.startsWith(own)))
    .map((f) => join(dirname(path), f));
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

/** A snapshot's graph file for partition `i`, named after the snapshot: a graph is never loaded for another snapshot's partition. */
function graphPath(path: string, i: number, baseId: string | undefined): string {
  return baseId ? `${path}.${baseId}.graph${i}` : `${path}.graph${i}`;
}
