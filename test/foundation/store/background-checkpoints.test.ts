/**
 * SQLite's WAL checkpoints on a worker's own connection (a commit
 * that checkpoints waits for the disk on the event loop). Real database
 * files in a temp dir, a real worker thread.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "../../../core/foundation/store/db.ts";
import { BackgroundCheckpoints } from "../../../core/foundation/store/background-checkpoints.ts";
import { createLilo, loadConfig, silentLogger, type Logger } from "../../../core/index.ts";
import { ControlledEmbedder } from "../../fakes/controlled-embedder.ts";
import { entryScript } from "../../helpers/entry.ts";

const PAGE = 4096;

describe("background checkpoints", () => {
  let dir: string;
  let db: Db;
  const warnings: string[] = [];
  const logger: Logger = { ...silentLogger, warn: (msg) => void warnings.push(msg) };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "lilo-checkpoints-"));
    db = openDatabase(join(dir, "lilo.db"));
    db.exec(`CREATE TABLE blob_rows (id INTEGER PRIMARY KEY, data BLOB)`);
    warnings.length = 0;
  });
  afterEach(() => {
    if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Commits `pages` pages of data, one transaction a page (each would be a chance to checkpoint). */
  const write = (pages: number) => {
    const insert = db.prepare(`INSERT INTO blob_rows (data) VALUES (?)`);
    for (let i = 0; i < pages; i++) insert.run(Buffer.alloc(PAGE - 200, i % 251));
  };
  const walPages = () => statSync(join(dir, "lilo.db-wal")).size / PAGE;
  /** Valid frames in the WAL (mxFrame of the wal-index header in -shm), read without touching the database. */
  const walFrames = () => readFileSync(join(dir, "lilo.db-shm")).readUInt32LE(16);

  it("a commit no longer checkpoints: the WAL grows past SQLite's 1,000 pages until the worker copies every frame back", async () => {
    const cp = new BackgroundCheckpoints(db, db.name, logger, 3_600_000); // only when asked, so the test decides when
    try {
      expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(0);
      write(1500);
      expect(walPages()).toBeGreaterThan(1500);
      const r = await cp.now();
      expect(r.busy).toBe(0);
      expect(r.log).toBeGreaterThan(1500);
      expect(r.checkpointed).toBe(r.log);
      // Everything is in the database file now: a fresh connection that ignores the WAL sees every row.
      expect(statSync(join(dir, "lilo.db")).size / PAGE).toBeGreaterThan(1500);
    } finally {
      await cp.stop();
    }
    expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(1000);
    expect(warnings).toEqual([]);
  });

  it("the control: with SQLite's default, commits keep the WAL near 1,000 pages", () => {
    write(1500);
    expect(walPages()).toBeLessThan(1200);
  });

  it("a worker that cannot run hands checkpoints back to the connection, with a warning", async () => {
    const cp = new BackgroundCheckpoints(db, join(dir, "missing", "lilo.db"), logger, 50);
    await expect.poll(() => cp.running).toBe(false);
    expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(1000);
    expect(warnings).toContain("background checkpoints stopped: SQLite checkpoints on commit again");
    await expect(cp.now()).rejects.toThrow(/not running/);
    await cp.stop();
  });

  it("the running bot's Lilo checkpoints in the background until close", async () => {
    const lilo = createLilo(loadConfig({ LILO_DATA_DIR: dir }), { db, embedder: new ControlledEmbedder(16), backgroundCheckpoints: true, logger });
    expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(0);
    await lilo.memory.add({ userId: "u", text: "Mag Tee am Abend" });
    write(1200);
    expect(walFrames()).toBeGreaterThan(1200);
    // The worker's own timer (every second) copies the WAL back; the next commit then starts it from its beginning.
    await expect
      .poll(
        () => {
          write(1);
          return walFrames();
        },
        { timeout: 10_000, interval: 200 },
      )
      .toBeLessThan(100);
    await lilo.close();
    expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(1000);
    expect(warnings).toEqual([]);
  });

  it("closing waits for the worker to end, also in a process with nothing else to do", () => {
    const child = spawnSync(process.execPath, [entryScript("test/helpers/checkpoints-close-child.ts"), join(dir, "child")], {
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(child.stderr).toBe("");
    expect(child.stdout).toBe("closed\n");
    expect(child.status).toBe(0);
  });
});
