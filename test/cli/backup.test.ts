import { afterEach, beforeEach, describe, expect, it } from "vitest";
import Database from "better-sqlite3-multiple-ciphers";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createLilo, type Lilo } from "../../core/index.ts";
import { openLiloDatabase, type Db } from "../../core/foundation/store/db.ts";
import { MIGRATIONS } from "../../core/foundation/store/schema.ts";
import { openConnection } from "../../core/foundation/store/db-open.ts";
import { dataKeyOf } from "../../core/foundation/store/data-key.ts";
import { makeTestLilo, TEST_DATA_KEY, type TestLilo } from "../helpers/test-lilo.ts";
import { runCli } from "../helpers/cli.ts";

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
    const path = /backup: (.+)$/.exec(res.out)![1]!;
    expect(existsSync(path)).toBe(true);
    return path;
  }

  it("a backup carries the Matrix key stores: copied beside it, a lost one put back on restore", async () => {
    const keys = join(t.lilo.config.dataDir, "matrix-crypto");
    mkdirSync(keys, { recursive: true });
    writeFileSync(join(keys, "DEVICE.store"), "keys");
    const res = await runCli(open, ["backup"]);
    const file = /backup: (.+\.db)/.exec(res.out)![1]!;
    expect(res.out).toContain(`Matrix encryption keys: ${file.replace(/\.db$/, ".matrix-crypto")}`);
    rmSync(keys, { recursive: true });
    const restored = await runCli(open, ["restore", file, "--apply"]);
    expect(restored.out).toContain("Matrix encryption keys put back (they were missing): DEVICE.store");
    expect(readFileSync(join(keys, "DEVICE.store"), "utf8")).toBe("keys");
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
