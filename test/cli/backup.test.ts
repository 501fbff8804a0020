import { afterEach, beforeEach, describe, expect, it } from "vitest";
import Database from "better-sqlite3-multiple-ciphers";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { deserialize, serialize } from "node:v8";
import { join } from "node:path";
import { createLilo, type Lilo } from "../../core/index.ts";
import { openLiloDatabase, type Db } from "../../core/foundation/store/db.ts";
import { MIGRATIONS } from "../../core/foundation/store/schema.ts";
import { openConnection } from "../../core/foundation/store/db-open.ts";
import { dataKeyOf } from "../../core/foundation/store/data-key.ts";
import { makeTestLilo, TEST_DATA_KEY, type TestLilo } from "../helpers/test-lilo.ts";
import { runCli } from "../helpers/cli.ts";
import { writeLegacyMatrixStore } from "../helpers/legacy-matrix-store.ts";

/** Opens a database file of the test Lilo (encrypted with its key). */
const openKeyed = (file: string, opts: { readonly?: boolean } = {}) => openConnection(file, dataKeyOf(TEST_DATA_KEY), opts);

describe("lilo backup / restore", () => {
  let t: TestLilo;
  let db: Db;
  const open = (): Lilo => createLilo(t.lilo.config, { embedder: t.embedder, db, clock: t.lilo.clock });
  const notes = () =>
    t.lilo.memory
      .list("owner", { store: "notes", limit: 100 })
      .map((r) => r.text)
      .sort();

  beforeEach(async () => {
    t = makeTestLilo();
    db = openLiloDatabase(t.lilo.config);
    await t.lilo.memory.add({ text: "Christian mag Kino", userId: "owner" });
    await t.lilo.memory.add({ text: "Christian trinkt Tee", userId: "owner" });
  });
  afterEach(async () => {
    db.close();
    await t.cleanup();
  });

  async function backup(): Promise<string> {
    const res = await runCli(open, ["backup"]);
    expect(res.code).toBe(0);
    const path = /^backup: (.+)$/m.exec(res.out)![1]!;
    expect(existsSync(path)).toBe(true);
    return path;
  }

  it("a backup carries the Matrix key stores inside it: a lost one put back on restore, an existing one kept", async () => {
    const record = (value: string) => [{ objectStore: "keys", key: Buffer.from("k"), value: Buffer.from(value) }];
    t.lilo.deviceKeys.save("matrix/LOST", "{}", record("lost keys"));
    t.lilo.deviceKeys.save("matrix/KEPT", "{}", record("older keys"));
    const res = await runCli(open, ["backup"]);
    const file = /backup: (.+\.db)/.exec(res.out)![1]!;
    expect(res.out).toContain("Matrix encryption keys (device KEPT, LOST) are inside the backup");
    t.lilo.deviceKeys.remove("matrix/LOST");
    t.lilo.deviceKeys.save("matrix/KEPT", "{}", record("newer keys"));
    const restored = await runCli(open, ["restore", file, "--apply"]);
    expect(restored.out).toContain("Matrix encryption keys kept as they were (newer than the backup's): KEPT");
    expect(restored.out).toContain("Matrix encryption keys put back (they were missing): LOST");
    expect(String(t.lilo.deviceKeys.load("matrix/LOST")!.records[0]!.value)).toBe("lost keys");
    expect(String(t.lilo.deviceKeys.load("matrix/KEPT")!.records[0]!.value)).toBe("newer keys");
  });

  it("restoring a backup of an earlier version puts the key store files beside it into the database", async () => {
    t.lilo.deviceKeys.save(
      "matrix/OLD",
      JSON.stringify({ format: 1, version: 1, objectStores: [{ name: "keys", keyPath: null, autoIncrement: false, indexes: [] }] }),
      [{ objectStore: "keys", key: serialize("account"), value: serialize({ pickle: "old keys" }) }],
    );
    const file = await backup();
    const beside = file.replace(/\.db$/, ".matrix-crypto");
    mkdirSync(beside);
    writeLegacyMatrixStore(t.lilo.deviceKeys, "OLD", join(beside, "OLD.store"));
    const copy = t.lilo.deviceKeys.load("matrix/OLD");
    t.lilo.deviceKeys.remove("matrix/OLD");
    // The backup itself holds no key store, as one of an earlier version would not.
    const old = openKeyed(file);
    old.exec("DELETE FROM device_key_stores");
    old.close();
    const restored = await runCli(open, ["restore", file, "--apply"]);
    expect(restored.out).toContain("Matrix encryption keys put back (they were missing): OLD");
    expect(t.lilo.deviceKeys.load("matrix/OLD")!.records.map((r) => deserialize(r.value) as unknown)).toEqual([{ pickle: "old keys" }]);
    expect(t.lilo.deviceKeys.load("matrix/OLD")!.records.map((r) => Buffer.from(r.key))).toEqual(copy!.records.map((r) => Buffer.from(r.key)));
  });

  it("restore is a dry run until --apply, which first backs up the current database", async () => {
    const file = await backup();
    await t.lilo.memory.add({ text: "Christian spielt Schach", userId: "owner" });
    const withThree = notes();

    const dry = await runCli(open, ["restore", file]);
    expect(dry.code).toBe(0);
    expect(dry.out).toContain(`schema version ${MIGRATIONS.length}`);
    expect(dry.out).toMatch(/notes\s+2\s+3/);
    expect(dry.out).toContain("dry run: nothing changed");
    expect(notes()).toEqual(withThree);

    const res = await runCli(open, ["restore", file, "--apply"]);
    expect(res.err).toBe("");
    expect(res.code).toBe(0);
    expect(res.out).toContain("backup of the current database:");
    expect(res.out).toContain("lilo doctor");
    expect(notes()).toEqual(["Christian mag Kino", "Christian trinkt Tee"]);
    // The embedded index came back with the rows as well (its vectors live in the same file).
    const check = await t.lilo.maintenance.check();
    expect(check.rowsWithoutVector).toEqual([]);
    expect(check.vectorsWithoutRow).toEqual([]);
    // The pre-restore backup holds the three notes.
    const pre = /backup of the current database: (.+)$/m.exec(res.out)![1]!;
    const preDb = openKeyed(pre, { readonly: true });
    expect((preDb.prepare("SELECT count(*) AS n FROM notes").get() as { n: number }).n).toBe(3);
    preDb.close();
  });

  it("refuses a file that is not a Lilo database", async () => {
    const junk = join(t.dir, "junk.db");
    writeFileSync(junk, "not sqlite at all, just some text that is long enough to look like a header".repeat(20));
    const res = await runCli(open, ["restore", junk, "--apply"]);
    expect(res.code).toBe(1);
    expect(res.err).toContain("is not a Lilo database");

    const other = join(t.dir, "other.db");
    const o = new Database(other);
    o.exec("CREATE TABLE x (a)");
    o.close();
    const res2 = await runCli(open, ["restore", other]);
    expect(res2.code).toBe(1);
    expect(res2.err).toContain("is not a Lilo database (none of its tables)");
    expect((await runCli(open, ["restore", join(t.dir, "missing.db")])).err).toContain("does not exist");
  });

  it("refuses a newer schema", async () => {
    const file = await backup();
    const b = openKeyed(file);
    b.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    b.close();
    const res = await runCli(open, ["restore", file, "--apply"]);
    expect(res.code).toBe(1);
    expect(res.err).toContain("newer than this Lilo");
  });

  it("refuses while another process holds the write lock", async () => {
    const file = await backup();
    await t.lilo.memory.add({ text: "Christian spielt Schach", userId: "owner" });
    const bot = openKeyed(t.lilo.config.dbPath);
    bot.exec("BEGIN IMMEDIATE");
    try {
      const backupsBefore = readdirSync(join(t.dir, "backups")).length;
      const res = await runCli(open, ["restore", file, "--apply"]);
      expect(res.code).toBe(1);
      expect(res.err).toContain("Stop the bot first");
      expect(readdirSync(join(t.dir, "backups")).length).toBe(backupsBefore);
    } finally {
      bot.exec("ROLLBACK");
      bot.close();
    }
    expect(notes()).toHaveLength(3);
  });

  it("refuses a damaged Lilo backup, naming every missing table or index", async () => {
    const file = await backup();
    const damaged = openKeyed(file);
    damaged.exec("DROP TABLE profile; DROP INDEX messages_external; DROP TABLE jobs");
    damaged.close();
    const res = await runCli(open, ["restore", file, "--apply"]);
    expect(res.code).toBe(1);
    expect(res.err).toContain("is a damaged Lilo database, missing:");
    for (const name of ["table profile", "index profile_unique", "index messages_external", "table jobs", "index jobs_pending"])
      expect(res.err).toContain(name);
    expect(notes()).toEqual(["Christian mag Kino", "Christian trinkt Tee"]);
  });

  it("refuses --apply while a live process holds the writer lock beside the database", async () => {
    const file = await backup();
    // A live process that is not this one: the parent of the test runner.
    writeFileSync(`${t.lilo.config.dbPath}.lock`, JSON.stringify({ pid: process.ppid, since: "2026-12-03T00:00:00.000Z", startTicks: null, role: "bot" }));
    const refused = await runCli(open, ["restore", file, "--apply"]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`Lilo is running (bot, pid ${process.ppid}`);
    expect(refused.out).not.toContain("restored");
  });

  it("ignores a stale lock, left by a process that is gone (kill -9)", async () => {
    const file = await backup();
    writeFileSync(`${t.lilo.config.dbPath}.lock`, JSON.stringify({ pid: 2 ** 22 + 12345, since: "2026-12-03T00:00:00.000Z", startTicks: null, role: "bot" }));
    const ok = await runCli(open, ["restore", file, "--apply"]);
    expect(ok.code).toBe(0);
    expect(existsSync(`${t.lilo.config.dbPath}.lock`)).toBe(false);
  });
});
