import { join } from "node:path";
import type { Clock } from "../foundation/ports/clock.ts";
import type { Db } from "../foundation/store/db.ts";
import { LiloError } from "../foundation/errors.ts";
import { ensurePrivateDir, makePrivate } from "../foundation/util/file-modes.ts";
import { migrate } from "../foundation/store/db.ts";
import { WriterLock } from "../foundation/store/writer-lock.ts";
import type { DeviceKeysStore, KeyStoreCopy } from "../foundation/store/device-keys.ts";
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
   * the file in (db-file.ts: restoreInto). The encryption devices' key
   * stores that exist now are kept (see `RestoreOutcome`).
   */
  restore(file: string, onBackup?: (path: string) => void): Promise<RestoreOutcome>;
}

/**
 * What a restore did with the encryption devices' key stores. A store that
 * exists now is kept as it is: the backup's older keys would replay ratchet
 * states the other devices have moved past. A store only the backup has (a
 * lost one) comes back from it.
 */
export interface RestoreOutcome {
  /** Stores kept from before the restore. */
  keyStoresKept: string[];
  /** Stores put back from the backup (there were none of these names before). */
  keyStoresRestored: string[];
}

/** Builds the backup use cases over the open database. */
export function backupApi(db: Db, paths: { dbPath: string; dataDir: string }, clock: Clock, deviceKeys: DeviceKeysStore, key?: DataKey): BackupApi {
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
        const kept = new Map<string, KeyStoreCopy>(deviceKeys.names().map((name) => [name, deviceKeys.load(name)!]));
        await restoreInto(file, paths.dbPath, key, db);
        // A backup of an older Lilo lacks the newer tables (the key stores' among them): bring it up to date now.
        migrate(db);
        for (const [name, copy] of kept) deviceKeys.replace(name, copy);
        return { keyStoresKept: [...kept.keys()], keyStoresRestored: deviceKeys.names().filter((n) => !kept.has(n)) };
      } finally {
        lock.release();
      }
    },
  };
}
