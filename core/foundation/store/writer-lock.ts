import { readFileSync, realpathSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { LiloError } from "../errors.ts";

/** What the lock file says about its holder. */
interface LockHolder {
  pid: number;
  /** When the holder started (ISO), for the message. */
  since: string;
  /** The kernel's start time of the process (Linux), so a reused PID is not mistaken for the holder. */
  startTicks: string | null;
  role: string;
}

/**
 * The writer lock file of a database: `<real path of the database>.lock`,
 * beside the file itself, so every process that opens this database finds
 * the same lock whatever its data folder, relative path or symlink to it.
 */
function lockPath(dbPath: string): string {
  return `${realDbPath(dbPath)}.lock`;
}

/** The database's path with every symlink resolved; for a file not created yet, its folder's real path. */
function realDbPath(dbPath: string): string {
  const abs = resolve(dbPath);
  try {
    return realpathSync(abs);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw new LiloError("locked", `Cannot resolve the database path ${abs}`, { cause: err });
  }
  try {
    return join(realpathSync(dirname(abs)), basename(abs));
  } catch (err) {
    throw new LiloError("locked", `The folder of the database ${abs} does not exist`, { cause: err });
  }
}

/** An in-memory database belongs to its process alone: there is nothing to lock. */
const isMemory = (dbPath: string) => dbPath === ":memory:";

/**
 * The lock a running bot holds (and a whole-file data move takes) for as
 * long as it runs, busy or idle. It is a file with the holder's PID and
 * process start time, checked for liveness, so a lock left by a crash
 * (kill -9) is recognised as stale and taken over.
 */
export class WriterLock {
  private constructor(private readonly path: string | undefined) {}

  /** Takes the lock of the database at `dbPath`, or throws naming the live holder. */
  static acquire(dbPath: string, role: string, now: Date): WriterLock {
    if (isMemory(dbPath)) return new WriterLock(undefined);
    const path = lockPath(dbPath);
    const holder = liveHolder(dbPath);
    if (holder) throw new LockHeldError(holder);
    const me: LockHolder = { pid: process.pid, since: now.toISOString(), startTicks: startTicks(process.pid), role };
    writeFileSync(path, JSON.stringify(me), { mode: 0o600 });
    return new WriterLock(path);
  }

  /** Removes the lock file if it is still ours. */
  release(): void {
    if (!this.path) return;
    const h = readHolder(this.path);
    if (h?.pid === process.pid) unlinkSync(this.path);
  }
}

/** A live process holds the writer lock. */
class LockHeldError extends LiloError {
  constructor(readonly holder: LockHolder) {
    super("locked", `Lilo is running (${holder.role}, pid ${holder.pid}, since ${holder.since}). Stop it first, then try again.`);
  }
}

/** The process holding the lock of the database at `dbPath`, if it is alive; undefined when free or stale. */
export function liveHolder(dbPath: string): LockHolder | undefined {
  if (isMemory(dbPath)) return undefined;
  const h = readHolder(lockPath(dbPath));
  if (!h || h.pid === process.pid) return undefined;
  return isRunning(h) ? h : undefined;
}

/** This process, as a lock file or a job's progress records its owner. */
export function currentProcess(): { pid: number; startTicks: string | null } {
  return { pid: process.pid, startTicks: startTicks(process.pid) };
}

/** Is the process that recorded itself as `p` still running (not dead, its PID not reused)? */
export function isRunning(p: { pid: number; startTicks: string | null }): boolean {
  if (!isAlive(p.pid)) return false;
  const ticks = startTicks(p.pid);
  // Same PID, other start time: the holder died and the number was reused.
  return !(p.startTicks && ticks && ticks !== p.startTicks);
}

function readHolder(path: string): LockHolder | undefined {
  let raw: string;
  try {
    raw = readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new LiloError("locked", `Cannot read the lock file ${path}`, { cause: err });
  }
  try {
    const h = JSON.parse(raw) as Partial<LockHolder>;
    return typeof h.pid === "number"
      ? { pid: h.pid, since: String(h.since ?? "?"), startTicks: h.startTicks ?? null, role: String(h.role ?? "lilo") }
      : undefined;
  } catch {
    // A torn write of a holder that crashed while writing it: that holder is gone, so there is no lock.
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks); null where there is no /proc. */
function startTicks(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    // No /proc (not Linux) or the process just ended: liveness then rests on the PID alone.
    return null;
  }
}
