import { chmodSync, existsSync, mkdirSync, statSync } from "node:fs";

/**
 * File modes of Lilo's data: everything she stores is private to the user
 * running her. Directories 0700, files (database, its WAL and shared-memory
 * files, backups, exports) 0600. Modes are set explicitly
 * rather than through the umask, which a library must not change.
 */
const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` (and parents) if missing and makes it 0700. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(dir, PRIVATE_DIR_MODE);
}

/** Makes an existing file 0600; a missing one is skipped (e.g. no WAL file yet). */
export function makePrivate(file: string): void {
  if (existsSync(file)) chmodSync(file, PRIVATE_FILE_MODE);
}

/** The SQLite database file and its WAL and shared-memory companions, 0600. */
export function makeDatabasePrivate(dbPath: string): void {
  for (const suffix of ["", "-wal", "-shm"]) makePrivate(`${dbPath}${suffix}`);
}

/** Whether a file exists and others than its owner may read or write it (a `.env` full of keys should not be). */
export function openToOthers(file: string): boolean {
  return existsSync(file) && (statSync(file).mode & 0o077) !== 0;
}
