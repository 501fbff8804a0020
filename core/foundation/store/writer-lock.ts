import { readFileSync, unlinkSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { LiloError } from "../errors.ts";

/** What the lock file says about its holder. */
export interface LockHolder {
  pid: number;
  /** When the holder started (ISO), for the message. */
  since: string;
  /** The kernel's start time of the process (Linux), so a reused PID is not mistaken for the holder. */
  startTicks: string | null;
  role: string;
}

/** Lilo's writer lock file inside the data directory. */
export const lockPath = (dataDir: string) => join(dataDir, "lilo.lock");

/**
 * The lock a running bot holds (and a whole-file data move takes) for as
 * long as it runs, busy or idle. It is a file with the holder's PID and
 * process start time, checked for liveness, so a lock left by a crash
 * (kill -9) is recognised as stale and taken over.
 */
export class WriterLock {
  private constructor(private readonly path: string) {}

  /** Takes the lock, or throws naming the live holder. */
  static acquire(dataDir: string, role: string, now: Date): WriterLock {
    mkdirSync(dataDir, { recursive: true });
    const path = lockPath(dataDir);
    const holder = liveHolder(dataDir);
    if (holder) throw new LockHeldError(holder);
    const me: LockHolder = { pid: process.pid, since: now.toISOString(), startTicks: startTicks(process.pid), role };
    writeFileSync(path, JSON.stringify(me), { mode: 0o600 });
    return new WriterLock(path);
  }

  /** Removes the lock file if it is still ours. */
  release(): void {
    const h = readHolder(this.path);
    if (h?.pid === process.pid) unlinkSync(this.path);
  }
}

/** A live process holds the writer lock. */
export class LockHeldError extends LiloError {
  constructor(readonly holder: LockHolder) {
    super("locked", `Lilo is running (${holder.role}, pid ${holder.pid}, since ${holder.since}). Stop it first, then try again.`);
  }
}

/** The process holding the lock, if it is alive; undefined when free or stale. */
export function liveHolder(dataDir: string): LockHolder | undefined {
  const h = readHolder(lockPath(dataDir));
  if (!h || h.pid === process.pid) return undefined;
  if (!isAlive(h.pid)) return undefined;
  const ticks = startTicks(h.pid);
  // Same PID, other start time: the holder died and the number was reused.
  if (h.startTicks && ticks && ticks !== h.startTicks) return undefined;
  return h;
}

/** Throws when a live process holds the writer lock. */
export function assertNotLocked(dataDir: string): void {
  const h = liveHolder(dataDir);
  if (h) throw new LockHeldError(h);
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
