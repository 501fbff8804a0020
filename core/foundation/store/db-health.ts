import type { Db } from "./db-type.ts";

/** The busy timeout every connection runs with (db.ts), restored after the probe. */
const BUSY_TIMEOUT_MS = 5_000;

/**
 * Can this connection write now? Takes SQLite's write lock and gives it back
 * at once, without waiting: a lock another process holds means the file is
 * writable (someone is writing), while a closed connection, a read-only file
 * or a failing disk is not.
 */
export function canWrite(db: Db): boolean {
  if (!db.open || db.readonly) return false;
  if (db.inTransaction) return true;
  db.pragma("busy_timeout = 0");
  try {
    db.prepare("BEGIN IMMEDIATE").run();
    db.prepare("ROLLBACK").run();
    return true;
  } catch (err) {
    return (err as { code?: string }).code === "SQLITE_BUSY";
  } finally {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  }
}
