/**
 * Child process of the snapshot kill test: adds, replaces and removes
 * vectors of three users on the embedded index (tiny snapshot sizes, so the
 * changes go to the log and new snapshots are written in the background a
 * few rows at a time) and SIGKILLs itself in the middle of one of the
 * asynchronous file operations, chosen by the parent:
 *
 * - `snapshot-chunk`: half of a chunk of a snapshot being written reached its temporary file;
 * - `snapshot-rename`: the snapshot is complete and fsynced, not yet renamed into place;
 * - `after-snapshot-rename`: the new snapshot is in place, its log not yet (the old log names the old one);
 * - `log-rename`: the new snapshot's empty log is written, not yet renamed into place;
 * - `append`: half of a batch appended to the log.
 *
 * The `nth` occurrence is the one that kills (later ones find older files to
 * recover from). With a key, the database is encrypted with it and the
 * snapshot files are sealed. Usage: snapshot-kill-child.ts <dir> <point> <nth> [key]
 */
import fsp, { type FileHandle } from "node:fs/promises";
import { syncBuiltinESMExports } from "node:module";
import { join } from "node:path";
import { EmbeddedIndex } from "../../core/foundation/providers/embedded-index/embedded-index.ts";
import { openDatabase } from "../../core/foundation/store/db.ts";
import { dataKeyOf } from "../../core/foundation/store/data-key.ts";

const [dir, point, nth, key] = process.argv.slice(2) as [string, string, string, string | undefined];
const DIM = 16;
/** A pseudo-random vector per row and version (a row's vector is replaced now and then). */
const vectorOf = (id: number, version: number) => Float32Array.from({ length: DIM }, (_, i) => Math.sin(id * 12.9898 + version * 3.7 + i * 78.233));
let seen = 0;
const due = () => ++seen === Number(nth);
const die = (): never => {
  process.kill(process.pid, "SIGKILL");
  throw new Error("unreachable");
};
const isSnapshotTemp = (p: string) => /\.vectors\.\d+-[0-9a-f]+\.tmp$/.test(p);
const isLogTemp = (p: string) => /\.vectors\.log\.\d+-[0-9a-f]+\.tmp$/.test(p);

// Wrap node:fs/promises (the snapshot code imports from it; syncBuiltinESMExports updates those bindings).
const paths = new WeakMap<FileHandle, string>();
const open = fsp.open;
let patched = false;
fsp.open = (async (path: string, ...rest: Parameters<typeof fsp.open> extends [unknown, ...infer R] ? R : never) => {
  const fh = await open(path, ...rest);
  paths.set(fh, String(path));
  if (!patched) patchWrite(Object.getPrototypeOf(fh) as FileHandle);
  return fh;
}) as typeof fsp.open;
const rename = fsp.rename;
fsp.rename = async (from, to) => {
  const p = String(from);
  if (point === "snapshot-rename" && isSnapshotTemp(p) && due()) die();
  if (point === "log-rename" && isLogTemp(p) && due()) die();
  await rename(from, to);
  if (point === "after-snapshot-rename" && isSnapshotTemp(p) && due()) die();
};
syncBuiltinESMExports();

function patchWrite(proto: FileHandle): void {
  patched = true;
  const write = proto.write as (this: FileHandle, b: Buffer, off: number, len: number, pos?: number | null) => Promise<{ bytesWritten: number }>;
  proto.write = async function (this: FileHandle, b: Buffer, off: number, len: number, pos?: number | null) {
    const p = paths.get(this) ?? "";
    const torn = (point === "snapshot-chunk" && isSnapshotTemp(p)) || (point === "append" && p.endsWith(".vectors.log"));
    if (torn && len > 16 && due()) {
      await write.call(this, b, off, Math.floor(len / 2), pos);
      die();
    }
    return write.call(this, b, off, len, pos);
  } as typeof proto.write;
}

const dataKey = key ? dataKeyOf(key) : undefined;
const db = openDatabase(join(dir, "lilo.db"), dataKey);
const index = new EmbeddedIndex(db, {
  ...(dataKey ? { dataKey } : {}),
  saveEvery: 25,
  compactAtBytes: 1,
  snapshotChunkBytes: 40 * (DIM + 8),
  appendRows: 30,
  keepLog: 20,
});
await index.init(DIM, "kill-test");
const tick = () => new Promise((r) => setImmediate(r));
// Rows 1..400 over three users; each pass adds some, replaces some (a new vector for the same row) and removes some
// (the partition's last row moves into the freed slot, also while a snapshot is being written).
for (let pass = 0; ; pass++) {
  // From pass 30 on, multiples of 5 are no longer added: once removed they stay removed (a removal the files lose shows).
  const ids = Array.from({ length: 12 }, (_, i) => 1 + ((pass * 37 + i * 53) % 400)).filter((id) => pass < 30 || id % 5 !== 0);
  await index.upsert(ids.map((id) => ({ store: "notes" as const, rowId: id, userId: `u${id % 3}`, vector: vectorOf(id, pass % 5) })));
  const gone = ids.slice(0, 4).map((id) => 1 + ((id * 7) % 400));
  await index.delete(gone.map((id) => ({ store: "notes" as const, rowId: id, userId: `u${id % 3}` })));
  await tick();
  if (pass === 5000) throw new Error(`${point} #${nth} never came`);
}
