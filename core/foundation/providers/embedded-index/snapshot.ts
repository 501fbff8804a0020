import { closeSync, existsSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { Partition } from "./partition.ts";
import { PRIVATE_FILE_MODE, makePrivate } from "../../util/file-modes.ts";

const MAGIC = "LILOVIX1";

/** What a snapshot file says about itself. */
export interface SnapshotHeader {
  dimension: number;
  embedderId: string;
  generation: string;
  /** The last change (sequence number in SQLite's log) the snapshot contains. */
  lastSeq: number;
  partitions: { userId: string; store: string; count: number; graph: boolean }[];
}

/**
 * Writes the RAM copy next to the database: a JSON header, then per
 * partition its row ids (float64) and int8 vectors; graphs go to their own
 * files in usearch's format. Written to a temporary file and renamed, so a
 * crash leaves the old snapshot or the new one, never half of one.
 */
export function saveSnapshot(path: string, header: Omit<SnapshotHeader, "partitions">, partitions: Partition[], withGraphs = true): void {
  const head: SnapshotHeader = {
    ...header,
    partitions: partitions.map((p) => ({ userId: p.userId, store: p.store, count: p.count, graph: withGraphs && p.hasGraph })),
  };
  const json = Buffer.from(JSON.stringify(head));
  const lenBuf = Buffer.alloc(4);
  lenBuf.writeUInt32LE(json.length);
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, "w", PRIVATE_FILE_MODE);
  try {
    writeSync(fd, Buffer.from(MAGIC));
    writeSync(fd, lenBuf);
    writeSync(fd, json);
    partitions.forEach((p, i) => {
      writeSync(fd, new Uint8Array(p.rowIds.buffer, p.rowIds.byteOffset, p.count * 8));
      writeSync(fd, new Uint8Array(p.data.buffer, p.data.byteOffset, p.count * p.dimension));
      if (head.partitions[i]!.graph) {
        p.saveGraph(graphPath(path, i));
        makePrivate(graphPath(path, i)); // usearch writes with the default mode; the vectors are the user's
      }
    });
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

/** Reads a snapshot; undefined when there is none. Throws on a damaged file (the caller rebuilds). */
export function loadSnapshot(path: string): { header: SnapshotHeader; partitions: Partition[] } | undefined {
  if (!existsSync(path)) return undefined;
  const buf = readFileSync(path);
  if (buf.subarray(0, MAGIC.length).toString() !== MAGIC) throw new Error(`${path} is not a Lilo vector snapshot`);
  const len = buf.readUInt32LE(MAGIC.length);
  let off = MAGIC.length + 4;
  const header = JSON.parse(buf.subarray(off, off + len).toString()) as SnapshotHeader;
  off += len;
  const partitions = header.partitions.map((h, i) => {
    const ids = new Float64Array(h.count);
    new Uint8Array(ids.buffer).set(buf.subarray(off, off + h.count * 8));
    off += h.count * 8;
    const data = new Int8Array(h.count * header.dimension);
    new Uint8Array(data.buffer).set(buf.subarray(off, off + data.length));
    off += data.length;
    if (off > buf.length) throw new Error(`${path} is truncated`);
    const p = Partition.from(h.userId, h.store, header.dimension, ids, data);
    // A graph that cannot be loaded is rebuilt by the index from the int8 vectors.
    if (h.graph && existsSync(graphPath(path, i))) p.loadGraph(graphPath(path, i));
    return p;
  });
  return { header, partitions };
}

/** Removes a snapshot and its graph files. */
export function removeSnapshot(path: string, partitions = 0): void {
  rmSync(path, { force: true });
  for (let i = 0; i < partitions; i++) rmSync(graphPath(path, i), { force: true });
}

function graphPath(path: string, i: number): string {
  return `${path}.graph${i}`;
}
