import Database from "better-sqlite3-multiple-ciphers";
import { constants, copyFileSync, existsSync } from "node:fs";
import { resolve } from "node:path";
import { dbFileState, openConnection } from "./db-open.ts";
import type { DataKey } from "./data-key.ts";
import { replaceContent } from "./replace-content.ts";
import { LiloError } from "../errors.ts";
import { MIGRATIONS } from "./schema.ts";
import type { Db } from "./db.ts";

/** Tables counted per store when a backup file is inspected (store name → table). */
const STORE_TABLES: Readonly<Record<string, string>> = {
  "chat messages": "messages",
  profile: "profile",
  "short-term": "short_term",
  important: "important",
  notes: "notes",
  thoughts: "thoughts",
  diary: "diary",
  topics: "topics",
  rules: "rules",
};

/** What a database file holds: its schema version and row counts per store. */
export interface DbSummary {
  schemaVersion: number;
  counts: Record<string, number>;
}

/** Schema version and row counts of an open database (missing tables count as 0). */
export function summarize(db: Db): DbSummary {
  const tables = new Set((db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]).map((r) => r.name));
  const counts: Record<string, number> = {};
  for (const [store, table] of Object.entries(STORE_TABLES)) {
    counts[store] = tables.has(table) ? (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n : 0;
  }
  return { schemaVersion: db.pragma("user_version", { simple: true }) as number, counts };
}

/**
 * Opens a file read-only and checks that it is a Lilo database this Lilo can
 * read: a SQLite file with Lilo's tables and a schema version not newer than ours.
 */
export function inspectBackup(file: string, livePath: string, key?: DataKey): DbSummary {
  if (!existsSync(file)) throw new LiloError("restore", `${file} does not exist`);
  if (livePath !== ":memory:" && resolve(file) === resolve(livePath)) throw new LiloError("restore", `${file} is the live database itself`);
  let db: Db | undefined;
  try {
    try {
      db = openBackupFile(file, key);
    } catch (err) {
      const why = key
        ? "LILO_DATA_KEY does not decrypt it (another key, or not a database at all)"
        : "it is encrypted or damaged, and LILO_DATA_KEY is not set";
      throw new LiloError("restore", `${file} is not a Lilo database this Lilo can open: ${why}`, { cause: err });
    }
    const summary = summarize(db);
    if (summary.schemaVersion > MIGRATIONS.length) {
      throw new LiloError("restore", `${file} has schema version ${summary.schemaVersion}, newer than this Lilo (${MIGRATIONS.length}); update Lilo first`);
    }
    const missing = missingSchema(db, summary.schemaVersion);
    if (missing.length && !Object.values(STORE_TABLES).some((t) => !missing.includes(`table ${t}`))) {
      throw new LiloError("restore", `${file} is not a Lilo database (none of its tables)`);
    }
    if (missing.length) throw new LiloError("restore", `${file} is a damaged Lilo database, missing: ${missing.join(", ")}`);
    return summary;
  } catch (err) {
    if (err instanceof LiloError) throw err;
    throw new LiloError("restore", `${file} is not a Lilo database (${(err as Error).message})`, { cause: err });
  } finally {
    db?.close();
  }
}

/**
 * What a database of schema `version` lacks of the schema that version's
 * migrations create: every table, index, trigger and view, by kind and name
 * ("table profile", "index messages_external"). Version 0 (no Lilo
 * migrations at all) lacks everything of the current schema.
 */
function missingSchema(db: Db, version: number): string[] {
  const expected = new Database(":memory:");
  try {
    for (const m of MIGRATIONS.slice(0, version || MIGRATIONS.length)) expected.exec(m);
    const have = new Set(schemaObjects(db));
    return schemaObjects(expected).filter((o) => !have.has(o));
  } finally {
    expected.close();
  }
}

function schemaObjects(db: Db): string[] {
  const rows = db.prepare(`SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name`).all() as { type: string; name: string }[];
  return rows.map((r) => `${r.type} ${r.name}`);
}

/**
 * Opens a backup file without writing to it, with the data key when it is
 * encrypted (a plain one, from before encryption, opens without). Not
 * `readonly`: a read-only connection to a WAL file leaves -wal/-shm files
 * behind, a normal one removes them on close; nothing here writes.
 */
function openBackupFile(file: string, key: DataKey | undefined): Db {
  return openConnection(file, dbFileState(file) === "plain" ? undefined : key, { fileMustExist: true });
}

/**
 * Writes a consistent copy of the open database to `target` (a new file).
 * A plain database is copied with SQLite's online backup. An encrypted one
 * (which the online backup cannot copy: its target would be plain) is copied
 * as a file, encrypted as it is: with the write lock held on `db`, so no
 * commit can land, a second connection checkpoints the WAL into the file;
 * when every frame made it, the file's bytes are the database. Otherwise (a
 * reader still on an older snapshot) VACUUM INTO writes the copy, encrypted
 * with the same key, more slowly.
 */
export async function copyDatabase(db: Db, target: string, live: { path: string; key: DataKey | undefined }): Promise<void> {
  if (dbFileState(live.path) !== "encrypted") {
    await db.backup(target);
    return;
  }
  db.exec("BEGIN IMMEDIATE");
  try {
    const other = openConnection(live.path, live.key, { fileMustExist: true });
    try {
      const [r] = other.pragma("wal_checkpoint(PASSIVE)") as { busy: number; log: number; checkpointed: number }[];
      if (r && r.busy === 0 && r.log === r.checkpointed) {
        copyFileSync(live.path, target, constants.COPYFILE_EXCL);
        return;
      }
    } finally {
      other.close();
    }
  } finally {
    db.exec("ROLLBACK");
  }
  db.prepare("VACUUM INTO ?").run(target);
}

/**
 * Refuses when another process (the running bot) holds or waits for the write
 * lock: BEGIN IMMEDIATE without waiting either gets the lock or fails at once.
 */
export function assertNoWriter(db: Db): void {
  const before = db.pragma("busy_timeout", { simple: true }) as number;
  db.pragma("busy_timeout = 0");
  try {
    db.exec("BEGIN IMMEDIATE");
    db.exec("ROLLBACK");
  } catch (err) {
    throw new LiloError("restore", "Another process is writing to the database. Stop the bot first, then run restore again.", { cause: err });
  } finally {
    db.pragma(`busy_timeout = ${before}`);
  }
}

/**
 * Copies `file` over the live database. A plain live database gets SQLite's
 * online backup (pages, not a file copy, so open connections stay valid); an
 * encrypted one, which the online backup cannot write without its key, gets
 * the file's schema and rows in one transaction on `live` (replace-content.ts).
 */
export async function restoreInto(file: string, livePath: string, key?: DataKey, live?: Db): Promise<void> {
  const src = openBackupFile(file, key);
  try {
    if (key && live && dbFileState(livePath) === "encrypted") {
      const fileKey = dbFileState(file) === "plain" ? undefined : key;
      src.close();
      replaceContent(live, file, fileKey);
    } else await src.backup(livePath);
  } catch (err) {
    throw new LiloError("restore", `Restoring ${file} failed: ${(err as Error).message}`, { cause: err });
  } finally {
    if (src.open) src.close();
  }
}
