/**
 * The HNSW graph files beside a vector snapshot. usearch saves and loads a
 * graph only through a file path, never a buffer, so beside an encrypted
 * database a graph goes through a folder in RAM (ram-folder.ts): usearch
 * writes it there in plain, in a 0600 file inside a 0700 folder of this
 * process; it is read back a record at a time, sealed (seal.ts, with a key
 * of its own) into a temporary file beside the snapshot, flushed and renamed
 * into place, and the plain file is removed. Loading is the reverse. The
 * plain bytes never touch a disk; without a RAM folder no graph is saved and
 * each start builds the graphs again, as before sealed graphs existed.
 */
import { closeSync, fstatSync, fsyncSync, openSync, readSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { VectorIndexError } from "../../errors.ts";
import { makePrivate, PRIVATE_FILE_MODE } from "../../util/file-modes.ts";
import type { Partition } from "./partition.ts";
import { FileSeal, graphKeyOf, SALT_BYTES, SEAL_OVERHEAD, type SnapshotKey } from "./seal.ts";
import { DEFAULT_RAM_FOLDER, ramFolder, removeDeadScratch, scratchFolder } from "./ram-folder.ts";
import { tempPath } from "./temp-path.ts";

/** Which snapshot and partition a graph file belongs to: bound into its seal, so files cannot be swapped. */
export interface GraphPlace {
  baseId: string | undefined;
  /** The partition's place in the snapshot's header. */
  index: number;
  userId: string;
  store: string;
}

/** How graphs are written beside a snapshot and read back. */
export interface GraphFiles {
  /** False when no graph is written at all (sealed, without a RAM folder). */
  readonly enabled: boolean;
  save(p: Partition, file: string, place: GraphPlace): void;
  /** Gives `p` its saved graph; false when the file does not fit the partition (the index builds the graph again). */
  load(p: Partition, file: string, place: GraphPlace): boolean;
}

/** Without a key: usearch's own files, 0600. */
export const plainGraphFiles: GraphFiles = {
  enabled: true,
  save(p, file) {
    p.saveGraph(file);
    makePrivate(file); // usearch writes with the default mode; the vectors are the user's
  },
  load(p, file) {
    return p.loadGraph(file);
  },
};

/** Sealed, but nowhere to let usearch write in plain: no graph files. */
export const noGraphFiles: GraphFiles = {
  enabled: false,
  save() {},
  load() {
    return false;
  },
};

/** What the index tells the graph files: its key, where the RAM folder is, and whom to tell what. */
export interface GraphFilesOptions {
  /**
   * With a data key: a folder in RAM (tmpfs) where a graph is written in plain for a moment to be sealed, and
   * unsealed to be loaded. Default /dev/shm; one that is missing, not writable or not a tmpfs, or null: no
   * graph files (each start builds the graphs again).
   */
  graphScratchDir?: string | null;
  /** Told why a graph file was not saved or not used (the graph is built again). */
  warn?: (message: string) => void;
  /** Told once at start when graphs are not saved for want of a RAM folder. */
  debug?: (message: string) => void;
}

/** The graph files of an index whose snapshot is sealed with `key` (none: plain). Looks for the RAM folder now. */
export function graphFilesFor(key: SnapshotKey | undefined, opts: GraphFilesOptions): GraphFiles {
  if (!key) return plainGraphFiles;
  const found = opts.graphScratchDir === null ? { reason: "none is configured" } : ramFolder(opts.graphScratchDir ?? DEFAULT_RAM_FOLDER);
  if ("reason" in found) {
    opts.debug?.(
      `Vector graphs are not saved beside the encrypted database (no folder in RAM to seal them through: ${found.reason}); each start builds them again`,
    );
    return noGraphFiles;
  }
  removeDeadScratch(found.dir);
  return new SealedGraphFiles(graphKeyOf(key), found.dir, opts.warn);
}

const MAGIC = "LILOGSX1";
/** Plain bytes per sealed record: reading, sealing and writing a graph of hundreds of MB takes a few MB of buffers. */
const RECORD_BYTES = 4 * 2 ** 20;

/**
 * A sealed graph file: the magic, the file's salt (its own key, seal.ts),
 * then records of u32 length + sealed bytes whose plain texts, joined, are
 * usearch's file. Each record's additional data names the snapshot and the
 * partition, the record's index and whether it is the last, so a file moved
 * to another partition or snapshot, reordered records or a cut-off file do
 * not open.
 */
export class SealedGraphFiles implements GraphFiles {
  readonly enabled = true;

  constructor(
    private readonly key: SnapshotKey,
    private readonly ram: string,
    private readonly warn?: (message: string) => void,
    private readonly recordBytes = RECORD_BYTES,
  ) {}

  /** Seals the graph into `file`; one that cannot be (the RAM folder is full) is left out with a warning and built again. */
  save(p: Partition, file: string, place: GraphPlace): void {
    try {
      this.throughRam((plain) => {
        closeSync(openSync(plain, "w", PRIVATE_FILE_MODE)); // usearch overwrites it and keeps the mode
        p.saveGraph(plain);
        sealInto(plain, file, FileSeal.create(this.key), place, this.recordBytes);
      });
    } catch (err) {
      this.warn?.(`The vector graph ${file} was not saved (${(err as Error).message}); the next start builds it again`);
    }
  }

  /** Unseals the graph and loads it; a file that does not open is not used (a warning) and the graph is built again. */
  load(p: Partition, file: string, place: GraphPlace): boolean {
    try {
      return this.throughRam((plain) => {
        unsealInto(file, plain, this.key, place);
        return p.loadGraph(plain);
      });
    } catch (err) {
      this.warn?.(`The vector graph ${file} was not used (${(err as Error).message}); the graph is built again`);
      return false;
    }
  }

  /** Runs `fn` with a path in a new private folder in RAM; the folder goes afterwards, whatever happened. */
  private throughRam<T>(fn: (plain: string) => T): T {
    const dir = scratchFolder(this.ram);
    try {
      return fn(join(dir, "graph"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

/** What a record's tag also covers: the graph's place, the record's index and whether it is the last one. */
function recordAad(place: GraphPlace, index: number, last: boolean): Buffer {
  const names = Buffer.from(JSON.stringify([MAGIC, place.baseId ?? "", place.index, place.userId, place.store]));
  const tail = Buffer.alloc(5);
  tail.writeUInt32LE(index, 0);
  tail[4] = last ? 1 : 0;
  return Buffer.concat([names, tail]);
}

/** Seals the plain file `from` into `to` (a temporary file, flushed, then renamed: the old file or the new one, whole). */
function sealInto(from: string, to: string, seal: FileSeal, place: GraphPlace, recordBytes: number): void {
  const tmp = tempPath(to);
  const src = openSync(from, "r");
  let done = false;
  try {
    const out = openSync(tmp, "w", PRIVATE_FILE_MODE);
    try {
      writeAll(out, Buffer.concat([Buffer.from(MAGIC), seal.salt]));
      const size = fstatSync(src).size;
      const buf = Buffer.allocUnsafe(recordBytes);
      let off = 0;
      for (let i = 0; i === 0 || off < size; i++) {
        const n = readSync(src, buf, 0, Math.min(recordBytes, size - off), off);
        if (n === 0 && size > off) throw new VectorIndexError(`${from} ended early while it was sealed`);
        off += n;
        const record = seal.seal(buf.subarray(0, n), recordAad(place, i, off >= size));
        const length = Buffer.alloc(4);
        length.writeUInt32LE(record.length, 0);
        writeAll(out, length);
        writeAll(out, record);
      }
      fsyncSync(out); // the data is on disk before the name points at it
    } finally {
      closeSync(out);
    }
    renameSync(tmp, to);
    done = true;
  } finally {
    closeSync(src);
    if (!done) rmSync(tmp, { force: true });
  }
}

/** Opens the sealed file `from` into the plain file `to`; throws when the key is another or the file was altered or cut off. */
function unsealInto(from: string, to: string, key: SnapshotKey, place: GraphPlace): void {
  const src = openSync(from, "r");
  try {
    const size = fstatSync(src).size;
    const head = readExactly(src, MAGIC.length + SALT_BYTES, 0, from, size);
    if (head.subarray(0, MAGIC.length).toString() !== MAGIC) throw new VectorIndexError(`${from} is not a sealed vector graph`);
    const seal = FileSeal.of(key, head.subarray(MAGIC.length));
    const out = openSync(to, "w", PRIVATE_FILE_MODE);
    try {
      let off = head.length;
      for (let i = 0; ; i++) {
        const length = readExactly(src, 4, off, from, size).readUInt32LE(0);
        if (length < SEAL_OVERHEAD) throw new VectorIndexError(`${from} holds a record shorter than its nonce and tag`);
        const record = readExactly(src, length, off + 4, from, size);
        off += 4 + length;
        const last = off === size;
        writeAll(out, openRecord(seal, record, recordAad(place, i, last), from));
        if (last) return;
      }
    } finally {
      closeSync(out);
    }
  } finally {
    closeSync(src);
  }
}

function openRecord(seal: FileSeal, record: Buffer, aad: Buffer, path: string): Buffer {
  try {
    return seal.open(record, aad);
  } catch (err) {
    throw new VectorIndexError(`${path} does not open with the data key (another key, another partition's file, or it was altered)`, { cause: err });
  }
}

/** `n` bytes at `at`; throws when the file ends first (cut off). */
function readExactly(fd: number, n: number, at: number, path: string, size: number): Buffer {
  if (at + n > size) throw new VectorIndexError(`${path} is truncated`);
  const buf = Buffer.allocUnsafe(n);
  for (let got = 0; got < n;) {
    const r = readSync(fd, buf, got, n - got, at + got);
    if (r === 0) throw new VectorIndexError(`${path} is truncated`);
    got += r;
  }
  return buf;
}

function writeAll(fd: number, b: Buffer): void {
  for (let off = 0; off < b.length;) off += writeSync(fd, b, off, b.length - off);
}
