import Database from "better-sqlite3-multiple-ciphers";
import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, LiloError } from "../errors.ts";
import { fsyncDir, fsyncFile } from "../util/fsync.ts";
import { makePrivate } from "../util/file-modes.ts";
import { dbFileState, openConnection } from "./db-open.ts";
import { rekeyPragmas, type DataKey } from "./data-key.ts";
import type { Db } from "./db-type.ts";

/**
 * `lilo encrypt` and `lilo rekey`: each database file of an install (the
 * live one, every backup) rewritten with a new key, in place. One file at a
 * time: a copy is written next to it (`.converting`), encrypted, checked
 * row for row against the original, flushed, and renamed over it. A kill at
 * any moment leaves the old file or the new one, complete; a run after it
 * removes the unfinished copy and goes on where the last one stopped. The
 * vector snapshot beside the database (plain, and rebuilt from the database
 * on start) is removed once the database is converted.
 */

/**
 * The steps, in order (the crash tests kill the process at each): the removal of
 * an earlier Lilo's plain analysis files once they are in the live database
 * (heard with their folder), then each database file's steps, then the snapshot.
 */
export const CONVERSION_PHASES = ["analyses", "copy", "encrypt", "verify", "replace", "snapshot"] as const;
export type ConversionPhase = (typeof CONVERSION_PHASES)[number];

/** One database file and what a conversion does with it. */
export interface ConversionItem {
  path: string;
  /** "convert": it opens with the old key (or is plain); "done": it already opens with the new key. */
  action: "convert" | "done";
  /** A plain file (from before encryption): converted from no key whatever the old key. */
  plain: boolean;
}

/** The database files of an install: the live database first, then the backups in data/backups/. */
export function databaseFiles(dbPath: string, dataDir: string): string[] {
  const dir = join(dataDir, "backups");
  const backups = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith(".db"))
        .sort()
        .map((f) => join(dir, f))
    : [];
  return [...(existsSync(dbPath) ? [dbPath] : []), ...backups];
}

/**
 * What converting these files from `from` (none: plain) to `to` would do.
 * Refuses, naming the file and LILO_DATA_KEY, a file that neither key opens.
 */
export function planConversion(files: readonly string[], from: DataKey | undefined, to: DataKey): ConversionItem[] {
  return files.map((path) => {
    const plain = dbFileState(path) === "plain";
    if (plain) return { path, action: "convert", plain };
    if (opens(path, to)) return { path, action: "done", plain };
    if (opens(path, from)) return { path, action: "convert", plain };
    const which = from ? "neither the old key (LILO_DATA_KEY) nor the new one" : "the key in LILO_DATA_KEY";
    throw new LiloError("database", `${which} opens ${path}, and it is not a plain database either: nothing was changed`);
  });
}

/** Removes the unfinished copies a killed conversion left behind (the originals are intact). */
export function removeUnfinished(files: readonly string[]): void {
  for (const f of files) rmSync(`${f}.converting`, { force: true });
}

/** Converts one file (see the file's comment); `onPhase` hears each step before it runs. */
export function convertFile(path: string, from: DataKey | undefined, to: DataKey, onPhase: (phase: ConversionPhase) => void = () => {}): void {
  const next = `${path}.converting`;
  rmSync(next, { force: true });
  const src = openConnection(path, from, { fileMustExist: true });
  let counts: Record<string, number>;
  try {
    // A live database's WAL is folded in first: the copy and the counts see every commit.
    src.pragma("wal_checkpoint(TRUNCATE)");
    counts = rowCounts(src);
    onPhase("copy");
    src.prepare("VACUUM INTO ?").run(next);
  } finally {
    src.close();
  }
  makePrivate(next);
  onPhase("encrypt");
  rekeyFile(next, from, to);
  onPhase("verify");
  const copy = openConnection(next, to, { fileMustExist: true });
  try {
    const got = rowCounts(copy);
    if (JSON.stringify(got) !== JSON.stringify(counts)) {
      throw new LiloError("database", `the converted copy of ${path} does not hold the same rows; the original is unchanged`);
    }
    copy.pragma("journal_mode = WAL");
  } finally {
    copy.close();
  }
  fsyncFile(next);
  onPhase("replace");
  for (const suffix of ["-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
  renameSync(next, path);
  fsyncDir(path);
}

/** Removes the vector snapshot and its log beside a database (rebuilt from the database on the next start). */
export function removeSnapshot(dbPath: string): void {
  const dir = join(dbPath, "..");
  const base = `${dbPath.slice(dir.length + 1)}.vectors`;
  for (const f of existsSync(dir) ? readdirSync(dir) : []) if (f.startsWith(base)) rmSync(join(dir, f), { force: true });
}

/** Does `key` (none: plain) open the file? */
function opens(path: string, key: DataKey | undefined): boolean {
  if (!key) return false;
  try {
    openConnection(path, key, { fileMustExist: true, readonly: true }).close();
    return true;
  } catch (err) {
    // A key that does not open the file (a ConfigError of openConnection) is the answer "no"; anything else is an error.
    if (err instanceof ConfigError) return false;
    throw err;
  }
}

/** Puts `to` on a closed file that `from` (none: plain) opens: SQLite3MultipleCiphers rewrites every page. */
function rekeyFile(path: string, from: DataKey | undefined, to: DataKey): void {
  const db = from ? openConnection(path, from, { fileMustExist: true }) : new Database(path, { fileMustExist: true });
  try {
    db.pragma("journal_mode = DELETE");
    for (const p of rekeyPragmas(to)) db.pragma(p);
  } finally {
    db.close();
  }
}

/** Rows per table, to check a copy against its original. */
function rowCounts(db: Db): Record<string, number> {
  const names = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name`).pluck().all() as string[];
  return Object.fromEntries(
    names.map((n) => [
      n,
      db
        .prepare(`SELECT count(*) FROM "${n.replaceAll('"', '""')}"`)
        .pluck()
        .get() as number,
    ]),
  );
}
