import { join } from "node:path";
import type { Clock } from "../foundation/ports/clock.ts";
import type { Db } from "../foundation/store/db.ts";
import { LiloError } from "../foundation/errors.ts";
import { ensurePrivateDir, makePrivate } from "../foundation/util/file-modes.ts";
import { WriterLock } from "../foundation/store/writer-lock.ts";
import { assertNoWriter, copyDatabase, inspectBackup, restoreInto, summarize, type DbSummary } from "../foundation/store/db-file.ts";
import type { DataKey } from "../foundation/store/data-key.ts";

/** Backups of the whole database and restoring one (`lilo backup`, `lilo restore`, the backup before every repair). */
export interface BackupApi {
  /**
   * Copies the database (with WAL content; encrypted with the data key when
   * the database is) into `data/backups/`, readable by the owner only (0600 in a 0700 directory);
   * returns the backup's path.
   */
  create(): Promise<string>;
  /** What a backup file holds next to the live database; throws LiloError("restore") for a file that is not a Lilo database this Lilo can read. */
  compare(file: string): { incoming: DbSummary; current: DbSummary };
  /**
   * Replaces the live database with `file`: refuses an in-memory database
   * and a running bot (the writer lock, then a write lock without waiting),
   * backs the current database up first (`onBackup` hears where) and copies
   * the file in (db-file.ts: restoreInto).
   */
  restore(file: string, onBackup?: (path: string) => void): Promise<void>;
}

/** Builds the backup use cases over the open database. */
export function backupApi(db: Db, paths: { dbPath: string; dataDir: string }, clock: Clock, key?: DataKey): BackupApi {
  const create = async () => {
    const dir = join(paths.dataDir, "backups");
    ensurePrivateDir(dir);
    const stamp = clock.now().toISOString().replace(/[:.]/g, "-");
    const target = join(dir, `lilo-${stamp}.db`);
    if (paths.dbPath === ":memory:") return "(in-memory database, no backup)";
    await copyDatabase(db, target, { path: paths.dbPath, key });
    makePrivate(target);
    return target;
  };
  return {
    create,
    compare: (file) => ({ incoming: inspectBackup(file, paths.dbPath, key), current: summarize(db) }),
    restore: async (file, onBackup) => {
      if (paths.dbPath === ":memory:") throw new LiloError("restore", "an in-memory database cannot be restored");
      // The bot must not run while pages are replaced, busy or idle: refuse rather than wait.
      // The lock also keeps a bot from starting until the restore is done.
      const lock = WriterLock.acquire(paths.dbPath, "restore", clock.now());
      try {
        assertNoWriter(db);
        const backup = await create();
        onBackup?.(backup);
        await restoreInto(file, paths.dbPath, key, db);
      } finally {
        lock.release();
      }
    },
  };
}
