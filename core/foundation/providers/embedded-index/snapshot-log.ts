/**
 * The change log beside a vector snapshot (`<snapshot>.log`): what changed
 * in the RAM copy since the snapshot was written, appended in batches, so a
 * save writes bytes in proportion to the changes instead of the whole copy.
 * Each batch is framed with its length and a CRC-32 and names the sequence
 * numbers (SQLite's vector change log) it starts from and ends at: a torn
 * tail (a crash mid-append) or a batch that does not continue the one before
 * (two processes) ends the replay there, and the index catches up the rest
 * from SQLite. Beside an encrypted database the log is sealed (seal.ts):
 * another magic, and each batch's body is sealed with the key of its
 * snapshot's log (the snapshot key and the snapshot's random id), so a batch
 * that does not open ends the replay like a torn one.
 */
import { existsSync, readFileSync } from "node:fs";
import { open, rename, type FileHandle } from "node:fs/promises";
import { crc32 } from "node:zlib";
import { PRIVATE_FILE_MODE } from "../../util/file-modes.ts";
import { tempPath } from "./temp-path.ts";
import { FileSeal, type SnapshotKey } from "./seal.ts";

const MAGIC = "LILOVLG1";
const MAGIC_SEALED = "LILOVLS1";

/** The seal of the log of snapshot `baseId` (its random id is the file's salt). */
export function logSeal(key: SnapshotKey, baseId: string): FileSeal {
  return FileSeal.of(key, Buffer.from(baseId));
}

/** A sealed batch's additional data: none beyond the file's own key. */
const NO_AAD = Buffer.alloc(0);

/** One row's state in a batch: its int8 vector, or undefined when it was removed. */
export interface LoggedRow {
  userId: string;
  store: string;
  rowId: number;
  int8: Int8Array | undefined;
}

interface BatchHead {
  fromSeq: number;
  lastSeq: number;
  /** Per row: [partition index in `parts`, row id, 1 = vector follows / 0 = removed]. */
  rows: [number, number, 0 | 1][];
  parts: [string, string][];
}

/**
 * Encodes a batch: u32 length, u32 CRC-32, then the body — u32 JSON length, JSON
 * head, the int8 vectors of the puts — sealed with `seal` when given.
 */
export function encodeBatch(fromSeq: number, lastSeq: number, rows: LoggedRow[], dimension: number, seal?: FileSeal): Buffer {
  const partIndex = new Map<string, number>();
  const head: BatchHead = { fromSeq, lastSeq, rows: [], parts: [] };
  for (const r of rows) {
    const key = `${r.store}\u0000${r.userId}`;
    let i = partIndex.get(key);
    if (i === undefined) {
      partIndex.set(key, (i = head.parts.length));
      head.parts.push([r.userId, r.store]);
    }
    head.rows.push([i, r.rowId, r.int8 ? 1 : 0]);
  }
  const json = Buffer.from(JSON.stringify(head));
  const puts = rows.filter((r) => r.int8);
  const plain = Buffer.alloc(4 + json.length + puts.length * dimension);
  plain.writeUInt32LE(json.length, 0);
  json.copy(plain, 4);
  puts.forEach((r, i) => plain.set(new Uint8Array(r.int8!.buffer, r.int8!.byteOffset, dimension), 4 + json.length + i * dimension));
  const body = seal ? seal.seal(plain, NO_AAD) : plain;
  const frame = Buffer.alloc(8);
  frame.writeUInt32LE(body.length, 0);
  frame.writeUInt32LE(crc32(body), 4);
  return Buffer.concat([frame, body]);
}

/** Writes a new, empty log for the snapshot `baseId` (temporary file, fsync, then rename), off the event loop. Returns its bytes. */
export async function startLog(path: string, baseId: string, sealed = false): Promise<number> {
  const json = Buffer.from(JSON.stringify({ baseId }));
  const head = Buffer.alloc(MAGIC.length + 4);
  head.write(sealed ? MAGIC_SEALED : MAGIC, 0);
  head.writeUInt32LE(json.length, MAGIC.length);
  const tmp = tempPath(path);
  const fh = await open(tmp, "w", PRIVATE_FILE_MODE);
  try {
    await writeAll(fh, Buffer.concat([head, json]), 0);
    await fh.datasync();
  } finally {
    await fh.close();
  }
  await rename(tmp, path);
  return head.length + json.length;
}

/**
 * Appends one encoded batch off the event loop, first cutting off a damaged
 * tail found at load (`validLength`); with `sync`, fsyncs it (a batch that
 * claims progress: SQLite's log is pruned behind it). A crash mid-append
 * leaves a torn batch that its checksum gives away.
 */
export async function appendBatch(path: string, batch: Buffer, validLength: number | undefined, sync: boolean): Promise<void> {
  const fh = await open(path, "r+", PRIVATE_FILE_MODE);
  try {
    const end = validLength ?? (await fh.stat()).size;
    if (validLength !== undefined) await fh.truncate(validLength);
    await writeAll(fh, batch, end);
    if (sync) await fh.datasync();
  } finally {
    await fh.close();
  }
}

async function writeAll(fh: FileHandle, b: Buffer, position: number): Promise<void> {
  for (let off = 0; off < b.length;) off += (await fh.write(b, off, b.length - off, position + off)).bytesWritten;
}

/**
 * Replays the log of snapshot `baseId` from `seq`: calls `apply` for each
 * row of each batch that continues the previous one. Returns the sequence
 * number reached, the bytes that were valid (to cut a damaged tail before the
 * next append) and the file's length; undefined when there is no log for this
 * snapshot (or it is sealed and `key` is not given, or plain and it is).
 */
export function replayLog(
  path: string,
  baseId: string,
  seq: number,
  dimension: number,
  apply: (row: LoggedRow) => void,
  key?: SnapshotKey,
): { lastSeq: number; validLength: number; length: number } | undefined {
  if (!existsSync(path)) return undefined;
  const buf = readFileSync(path);
  if (buf.length < MAGIC.length + 4 || buf.subarray(0, MAGIC.length).toString() !== (key ? MAGIC_SEALED : MAGIC)) return undefined;
  const len = buf.readUInt32LE(MAGIC.length);
  let off = MAGIC.length + 4 + len;
  if (off > buf.length) return undefined;
  const head = JSON.parse(buf.subarray(MAGIC.length + 4, off).toString()) as { baseId?: string };
  if (head.baseId !== baseId) return undefined;
  const seal = key ? logSeal(key, baseId) : undefined;
  let lastSeq = seq;
  while (off + 8 <= buf.length) {
    const size = buf.readUInt32LE(off);
    const framed = buf.subarray(off + 8, off + 8 + size);
    if (framed.length < size || crc32(framed) !== buf.readUInt32LE(off + 4)) break; // torn or damaged: the rest comes from SQLite
    const body = seal ? openBatch(seal, framed) : framed;
    if (!body) break; // does not open with the key: the rest comes from SQLite too
    const jsonLen = body.readUInt32LE(0);
    const batch = JSON.parse(body.subarray(4, 4 + jsonLen).toString()) as BatchHead;
    if (batch.fromSeq !== lastSeq) break; // not a continuation of what we hold (another process wrote in between)
    let v = 4 + jsonLen;
    for (const [pi, rowId, put] of batch.rows) {
      const [userId, store] = batch.parts[pi]!;
      let int8: Int8Array | undefined;
      if (put) {
        int8 = new Int8Array(body.buffer, body.byteOffset + v, dimension);
        v += dimension;
      }
      apply({ userId, store, rowId, int8 });
    }
    lastSeq = batch.lastSeq;
    off += 8 + size;
  }
  return { lastSeq, validLength: off, length: buf.length };
}

/** A sealed batch's plain body; undefined when it does not open (its checksum held, so it was altered or sealed with another key). */
function openBatch(seal: FileSeal, framed: Buffer): Buffer | undefined {
  try {
    return seal.open(framed, NO_AAD);
  } catch {
    return undefined; // the caller stops the replay here; the changes are caught up from SQLite
  }
}
