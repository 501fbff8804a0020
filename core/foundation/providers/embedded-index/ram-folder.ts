import { accessSync, constants, existsSync, mkdtempSync, readdirSync, rmSync, statfsSync, statSync } from "node:fs";
import { join } from "node:path";
import { alive } from "./pid-alive.ts";

/** Where Linux keeps a RAM-backed folder open to every user (glibc's shm_open uses it too). */
export const DEFAULT_RAM_FOLDER = "/dev/shm";

/**
 * File system types whose files live in RAM only (statfs(2)): tmpfs and
 * ramfs. Read from the folder itself rather than from /proc/mounts, so a
 * folder below a mount point and a bind mount are judged by what really
 * holds their bytes.
 */
const RAM_FS_TYPES = new Set([0x01021994 /* tmpfs */, 0x858458f6 /* ramfs */]);

/** The prefix of this process's scratch folders; the process id lets a start clear what a killed one left. */
const SCRATCH_PREFIX = "lilo-graph-";

/**
 * `dir` when it is a folder in RAM that this process may write to; otherwise
 * why not. A plain graph written anywhere else would stay readable on the disk
 * (and in its snapshots) after it was removed.
 */
export function ramFolder(dir: string): { dir: string } | { reason: string } {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return { reason: `${dir} is not a folder` };
  try {
    accessSync(dir, constants.W_OK);
  } catch (err) {
    return { reason: `${dir} is not writable (${(err as Error).message})` };
  }
  const type = statfsSync(dir).type;
  if (!RAM_FS_TYPES.has(type)) return { reason: `${dir} is not a tmpfs (file system type 0x${type.toString(16)})` };
  return { dir };
}

/** A new folder of this process inside `ram`, 0700 (mkdtemp), for one plain graph file at a time. */
export function scratchFolder(ram: string): string {
  return mkdtempSync(join(ram, `${SCRATCH_PREFIX}${process.pid}-`));
}

/**
 * Removes the scratch folders that processes no longer running left in `ram`
 * (a kill while a graph was being sealed): they may hold a graph in plain.
 * Another user's folders are left alone (a sticky folder would refuse anyway).
 */
export function removeDeadScratch(ram: string): void {
  const uid = process.getuid?.();
  for (const name of readdirSync(ram)) {
    const m = name.startsWith(SCRATCH_PREFIX) ? /^lilo-graph-(\d+)-/.exec(name) : null;
    if (!m || alive(Number(m[1]))) continue;
    const path = join(ram, name);
    const owner = statSync(path, { throwIfNoEntry: false })?.uid; // gone meanwhile: nothing to do
    if (owner !== undefined && (uid === undefined || owner === uid)) rmSync(path, { recursive: true, force: true });
  }
}
