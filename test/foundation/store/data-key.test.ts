import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, openLiloDatabase, type Db } from "../../../core/foundation/store/db.ts";
import { configuredDataKey, dataKeyOf, generateDataKey } from "../../../core/foundation/store/data-key.ts";
import { ConfigError } from "../../../core/foundation/errors.ts";
import { folderHashes, plainFindings } from "../../helpers/folder-bytes.ts";

const PHRASE = "Zitronenfalter im Dezember";
const KEY = dataKeyOf("a1".repeat(32));

describe("the database encrypted at rest", () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "lilo-key-"));
    path = join(dir, "lilo.db");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** An encrypted database holding the phrase, closed. */
  const encrypted = (key = KEY) => {
    const db = openDatabase(path, key);
    db.prepare("INSERT INTO notes (user_id, text, created_at, updated_at) VALUES ('owner', ?, '2026-01-01', '2026-01-01')").run(PHRASE);
    db.close();
  };

  it("writes no readable byte: neither the phrase nor SQLite's header, in the file or its WAL", () => {
    const db = openDatabase(path, KEY);
    db.prepare("INSERT INTO notes (user_id, text, created_at, updated_at) VALUES ('owner', ?, '2026-01-01', '2026-01-01')").run(PHRASE);
    expect(plainFindings(dir, PHRASE)).toEqual([]); // open: the row sits in the WAL
    db.close();
    expect(plainFindings(dir, PHRASE)).toEqual([]);
  });

  it("opens again with its key and reads the row", () => {
    encrypted();
    const db = openDatabase(path, KEY);
    expect(db.prepare("SELECT text FROM notes").pluck().all()).toEqual([PHRASE]);
    db.close();
  });

  it("refuses without a key, naming LILO_DATA_KEY, and leaves every file byte-identical", () => {
    encrypted();
    const before = folderHashes(dir);
    expect(() => openDatabase(path)).toThrow(ConfigError);
    expect(() => openDatabase(path)).toThrow(/LILO_DATA_KEY/);
    expect(folderHashes(dir)).toEqual(before);
  });

  it("refuses a wrong key or the key of another database, naming LILO_DATA_KEY, and leaves every file byte-identical", () => {
    encrypted();
    const before = folderHashes(dir);
    expect(() => openDatabase(path, dataKeyOf(generateDataKey()))).toThrow(/LILO_DATA_KEY does not open .*wrong key or the key of another database/);
    expect(folderHashes(dir)).toEqual(before);
  });

  it("refuses a key for a plain database, pointing to `lilo encrypt --apply`, and leaves it byte-identical", () => {
    openDatabase(path).close();
    const before = folderHashes(dir);
    expect(() => openDatabase(path, KEY)).toThrow(/not encrypted but LILO_DATA_KEY is set: run `lilo encrypt --apply`/);
    expect(folderHashes(dir)).toEqual(before);
  });

  it("keeps a plain database without a key working", () => {
    openDatabase(path).close();
    const db = openDatabase(path);
    expect(db.prepare("SELECT count(*) FROM notes").pluck().get()).toBe(0);
    db.close();
  });

  it("takes a passphrase as well as a generated key", () => {
    encrypted(dataKeyOf("correct horse battery staple"));
    expect(() => openDatabase(path, dataKeyOf("correct horse battery stapl"))).toThrow(/does not open/);
    const db = openDatabase(path, dataKeyOf("correct horse battery staple"));
    expect(db.prepare("SELECT count(*) FROM notes").pluck().get()).toBe(1);
    db.close();
  });

  it("reads the key from LILO_DATA_KEY_FILE, and refuses both settings at once", () => {
    const keyFile = join(dir, "..", `${dir.split("/").pop()}.key`);
    writeFileSync(keyFile, `${"a1".repeat(32)}\n`);
    try {
      encrypted();
      let db: Db | undefined = openLiloDatabase({ dbPath: path, dataKeyFile: keyFile });
      expect(db.prepare("SELECT count(*) FROM notes").pluck().get()).toBe(1);
      db.close();
      db = undefined;
      expect(() => configuredDataKey({ dataKey: "x", dataKeyFile: keyFile })).toThrow(/both set/);
      expect(() => configuredDataKey({ dataKeyFile: join(dir, "missing.key") })).toThrow(/LILO_DATA_KEY_FILE .*missing\.key cannot be read/);
    } finally {
      rmSync(keyFile, { force: true });
    }
  });
});
