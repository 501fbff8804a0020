import Database from "better-sqlite3-multiple-ciphers";
import { closeSync, existsSync, openSync, readSync, statSync } from "node:fs";
import { ConfigError, LiloError } from "../errors.ts";
import type { DataKey } from "./data-key.ts";
import type { Db } from "./db-type.ts";

/** What lies at a database path before it is opened. */
export type DbFileState = "missing" | "plain" | "encrypted";

/** The first 16 bytes of every unencrypted SQLite file. */
export const SQLITE_HEADER = "SQLite format 3\0";

/**
 * Tells a plain SQLite file from an encrypted one by its first bytes, without
 * opening it: an empty or absent file is "missing" (SQLite creates it anew).
 */
export function dbFileState(path: string): DbFileState {
  if (path === ":memory:" || !existsSync(path) || statSync(path).size === 0) return "missing";
  const head = Buffer.alloc(16);
  const fd = openSync(path, "r");
  try {
    readSync(fd, head, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  return head.toString("latin1") === SQLITE_HEADER ? "plain" : "encrypted";
}

/** Options of one connection. */
export interface ConnectionOptions {
  readonly?: boolean;
  fileMustExist?: boolean;
}

/**
 * Opens one connection to `path` with `key` (none: a plain database) and
 * proves the key by reading the schema. Refuses, before SQLite touches the
 * file, a plain file when a key is given and an encrypted one without a key;
 * a key that does not decrypt the file is refused after one read. Each
 * refusal is a ConfigError that names LILO_DATA_KEY; the files stay byte-identical.
 */
export function openConnection(path: string, key: DataKey | undefined, opts: ConnectionOptions = {}): Db {
  const state = dbFileState(path);
  if (state === "encrypted" && !key) {
    throw new ConfigError(`${path} is encrypted and no key is set: set LILO_DATA_KEY (or LILO_DATA_KEY_FILE) to its key. Nothing was changed.`);
  }
  if (state === "plain" && key) {
    throw new ConfigError(
      `${path} is not encrypted but ${key.source} is set: run \`lilo encrypt --apply\` to encrypt it with that key, or remove LILO_DATA_KEY to keep using it unencrypted. Nothing was changed.`,
    );
  }
  let db: Db;
  try {
    db = new Database(path, opts);
  } catch (err) {
    throw new LiloError("database", `Cannot open database ${path}`, { cause: err });
  }
  if (!key) return db;
  try {
    for (const p of key.pragmas) db.pragma(p);
    db.prepare("SELECT count(*) FROM sqlite_master").get();
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === "SQLITE_NOTADB") {
      throw new ConfigError(`${key.source} does not open ${path}: it is a wrong key or the key of another database. Nothing was changed.`, { cause: err });
    }
    throw new LiloError("database", `Cannot open database ${path}`, { cause: err });
  }
  return db;
}
