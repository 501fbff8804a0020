import type { Db } from "./db.ts";

/**
 * Runs `fn` in a write transaction that takes SQLite's write lock at BEGIN
 * (IMMEDIATE). A deferred transaction that reads before it writes cannot
 * wait for another writer in WAL mode: SQLite fails it at once with
 * "database is locked". An immediate one waits out the busy timeout, so the
 * bot, the jobs and the CLI can write the same file at the same time.
 * Inside another transaction it becomes a savepoint of that one.
 */
export function writeTransaction<T>(db: Db, fn: () => T): T {
  return db.transaction(fn).immediate();
}
