import type { Db } from "./db-type.ts";

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

/**
 * Runs async `fn` between BEGIN IMMEDIATE and COMMIT, rolling back when it
 * throws (the error is rethrown). For work that awaits inside the
 * transaction, which better-sqlite3's `transaction()` cannot hold: an import
 * writes its rows and, with the embedded index, their vectors all or nothing.
 */
export async function asyncWriteTransaction<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  db.exec("BEGIN IMMEDIATE");
  let result: T;
  try {
    result = await fn();
  } catch (err) {
    db.exec("ROLLBACK");
    throw err;
  }
  db.exec("COMMIT");
  return result;
}
