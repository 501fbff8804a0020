import { dirname } from "node:path";
import { LiloError } from "../errors.ts";
import { MIGRATIONS } from "./schema.ts";
import { ensurePrivateDir, makeDatabasePrivate } from "../util/file-modes.ts";
import { writeTransaction } from "./tx.ts";
import type { Db } from "./db-type.ts";
import { openConnection, dbFileState } from "./db-open.ts";
import { configuredDataKey, type DataKey, type DataKeySettings } from "./data-key.ts";

/** An open SQLite connection (the type lives in db-type.ts, so tx.ts needs no import of this file). */
export type { Db } from "./db-type.ts";

/**
 * Opens (and creates) Lilo's SQLite database, private to its owner (directory
 * 0700, files 0600), encrypted with `key` (data-key.ts; none: a plain
 * database, which keeps working for installs from before encryption): WAL so
 * the CLI can work while the bot runs, a busy timeout instead of "database is
 * locked" errors, and all pending migrations applied in one transaction each.
 * A missing, wrong or unexpected key is refused before anything is written (db-open.ts).
 */
export function openDatabase(path: string, key?: DataKey): Db {
  if (path !== ":memory:") ensurePrivateDir(dirname(path));
  const db = openConnection(path, path === ":memory:" ? undefined : key);
  // Before WAL mode: SQLite gives the -wal and -shm files the database file's mode.
  if (path !== ":memory:") makeDatabasePrivate(path);
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 5000");
  db.pragma("foreign_keys = ON");
  db.pragma("synchronous = NORMAL");
  migrate(db);
  if (path !== ":memory:") makeDatabasePrivate(path);
  return db;
}

/** Opens the database of a configuration with its data key (LILO_DATA_KEY or LILO_DATA_KEY_FILE). */
export function openLiloDatabase(config: DataKeySettings & { dbPath: string }): Db {
  return openDatabase(config.dbPath, configuredDataKey(config));
}

/** Whether the database at `path` is encrypted on disk (an absent one is not). */
export function isEncryptedFile(path: string): boolean {
  return dbFileState(path) === "encrypted";
}

/**
 * Sets the connection's page cache to `mb` MB (SQLite's default is 2 MB; 0
 * keeps it). Among 1,000 users a 1.5 GB database's pages of one user's turn
 * no longer fit the default, and each miss is a read from the OS (`npm run
 * bench`, many users).
 */
export function setPageCache(db: Db, mb: number): void {
  if (mb > 0) db.pragma(`cache_size = -${Math.round(mb * 1024)}`);
}

/** Applies every migration newer than the database's user_version. */
export function migrate(db: Db): number {
  const current = db.pragma("user_version", { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new LiloError("database", `Database schema version ${current} is newer than this Lilo (${MIGRATIONS.length}); update Lilo.`);
  }
  for (let v = current; v < MIGRATIONS.length; v++) {
    writeTransaction(db, () => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    });
  }
  return MIGRATIONS.length;
}
