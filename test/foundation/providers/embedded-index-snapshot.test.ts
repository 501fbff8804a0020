import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EmbeddedIndex, type EmbeddedIndexOptions } from "../../../core/foundation/providers/embedded-index/embedded-index.ts";
import type { IndexStore, VectorKey, VectorRecord } from "../../../core/foundation/ports/vector-index.ts";
import { openDatabase, type Db } from "../../../core/foundation/store/db.ts";

const EMB = "emb-test";
const DIM = 16;

/** A pseudo-random vector per id (distinct for every id the tests use). */
function vecOf(id: number): Float32Array {
  return Float32Array.from({ length: DIM }, (_, i) => (Math.sin(id * 12.9898 + i * 78.233) * 43758.5453) % 1);
}
const rec = (rowId: number, userId = "u1", store: IndexStore = "notes"): VectorRecord<IndexStore> => ({ store, rowId, userId, vector: vecOf(rowId) });
const sorted = (keys: VectorKey<IndexStore>[]) => keys.map((k) => `${k.store}/${k.userId}/${k.rowId}`).sort();
const tick = () => new Promise((r) => setImmediate(r));
/** Turns the event loop until `done()` (each turn, so no step of a background write is missed), at most 20 s. */
async function until(done: () => boolean): Promise<void> {
  const end = Date.now() + 20_000;
  while (!done() && Date.now() < end) await tick();
}

/**
 * The snapshot of the embedded index: saves append the changed rows to a
 * log beside it, a new snapshot is written in the background, and whatever
 * a crash leaves (a torn log, a half-written snapshot) still loads — or is
 * rebuilt from SQLite — to exactly what SQLite holds.
 */
describe("EmbeddedIndex snapshot: writes in proportion to changes, crash-safe", () => {
  let dir: string;
  let file: string;
  const dbs: Db[] = [];
  const open = (opts: EmbeddedIndexOptions = {}, path = file) => {
    const db = openDatabase(path);
    dbs.push(db);
    return { sql: db, index: new EmbeddedIndex(db, opts) };
  };
  /** Opens the database as it is on disk now (another process; or this one after a crash) and checks it against SQLite. */
  const reopened = async (path = file) => {
    const b = open({}, path);
    await b.index.init(DIM, EMB);
    const inSqlite = (b.sql.prepare("SELECT store, row_id AS rowId, user_id AS userId FROM memory_vectors").all() as VectorKey<IndexStore>[]).map(
      (k) => `${k.store}/${k.userId}/${k.rowId}`,
    );
    expect(sorted(await b.index.keys())).toEqual(inSqlite.sort());
    // Every vector is found by itself: no row carries another row's vector.
    const rows = b.sql
      .prepare("SELECT store, row_id AS rowId, user_id AS userId FROM memory_vectors ORDER BY key DESC LIMIT 40")
      .all() as VectorKey<IndexStore>[];
    for (const r of rows) expect((await b.index.search({ vector: vecOf(r.rowId), store: r.store, userId: r.userId, k: 1 }))[0]?.rowId).toBe(r.rowId);
    return b;
  };

  /** A snapshot is being written in the background (its temporary file exists). */
  const writing = () => readdirSync(dir).some((f) => f.endsWith(".tmp"));

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "lilo-snap-"));
    file = join(dir, "lilo.db");
  });
  afterEach(() => {
    for (const db of dbs.splice(0)) if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("appends a save's changed rows to the log instead of rewriting the snapshot", async () => {
    const a = open({ saveEvery: 10 });
    await a.index.init(DIM, EMB);
    await a.index.upsert(Array.from({ length: 3000 }, (_, i) => rec(i + 1, `u${i % 3}`)));
    await a.index.upsert(Array.from({ length: 200 }, (_, i) => rec(5000 + i, "u1", "messages")));
    a.index.save(); // the first snapshot (no graphs: written in the background)
    await a.index.saved();
    const snapshotSize = statSync(`${file}.vectors`).size;
    expect(snapshotSize + statSync(`${file}.vectors.log`).size).toBeGreaterThan(3200 * DIM); // snapshot + log hold it all
    const before = a.index.copyState().snapshotBytesWritten!;
    for (let i = 0; i < 20; i++) await a.index.upsert([rec(10_000 + i, "u2")]); // two saves of ten changes
    await a.index.delete([{ store: "notes", rowId: 7, userId: "u0" }]);
    a.index.save();
    await a.index.saved();
    const written = a.index.copyState().snapshotBytesWritten! - before;
    expect(written).toBeGreaterThan(21 * DIM);
    expect(written).toBeLessThan(21 * (DIM + 40) + 3 * 300); // rows and small batch heads, not the 3,200-row snapshot
    expect(statSync(`${file}.vectors`).size).toBe(snapshotSize);
    const b = await reopened();
    expect(b.index.copyState()).toMatchObject({ loadedFrom: "snapshot", rebuildNeeded: undefined });
  });

  it("appends many changed rows a piece per turn, each piece safe to crash after", async () => {
    const a = open({ saveEvery: Number.POSITIVE_INFINITY, appendRows: 10 });
    await a.index.init(DIM, EMB);
    await a.index.upsert(Array.from({ length: 20 }, (_, i) => rec(i + 1)));
    a.index.save();
    await a.index.saved();
    const log = `${file}.vectors.log`;
    const empty = statSync(log).size;
    await a.index.upsert(Array.from({ length: 35 }, (_, i) => rec(100 + i, `u${i % 2}`)));
    await a.index.delete([{ store: "notes", rowId: 3, userId: "u1" }]);
    const before = a.index.copyState().snapshotBytesWritten!;
    a.index.save();
    const onePiece = a.index.copyState().snapshotBytesWritten! - before; // what this turn copied
    expect(onePiece).toBeGreaterThan(10 * DIM);
    expect(onePiece).toBeLessThan(11 * DIM + 400); // ten rows now, the other 26 on later turns
    await a.index.saved();
    expect(statSync(log).size - empty).toBeGreaterThan(36 * DIM);
    await reopened();
    // A crash between pieces: the log as it was after the first one, in a copy. The piece claims no progress,
    // so the replay stops short of the changes and the rest comes from SQLite.
    a.sql.pragma("wal_checkpoint(TRUNCATE)");
    const copy = join(dir, "copy.db");
    for (const f of ["", "-wal", ".vectors", ".vectors.log"]) if (existsSync(`${file}${f}`)) copyFileSync(`${file}${f}`, `${copy}${f}`);
    truncateSync(`${copy}.vectors.log`, empty + onePiece);
    const b = await reopened(copy);
    expect(b.index.copyState()).toMatchObject({ loadedFrom: "snapshot", entries: 54, rebuildNeeded: undefined });
  });

  it("survives a crash mid-append (torn log tail), appending after the cut", async () => {
    const a = open({ saveEvery: 5 });
    await a.index.init(DIM, EMB);
    await a.index.upsert(Array.from({ length: 50 }, (_, i) => rec(i + 1)));
    a.index.save();
    await a.index.saved();
    for (let i = 0; i < 12; i++) await a.index.upsert([rec(100 + i, "u2")]); // appended in batches
    await a.index.saved();
    const log = `${file}.vectors.log`;
    truncateSync(log, statSync(log).size - 7); // the last batch torn
    const b = await reopened();
    expect(b.index.copyState()).toMatchObject({ loadedFrom: "snapshot", entries: 62 });
    await b.index.upsert([rec(200, "u3")]);
    b.index.save(); // appended after the cut, not after the garbage
    await b.index.saved();
    await reopened();
  });

  it("keeps the old snapshot when a crash interrupts one written in the background", async () => {
    const a = open({ saveEvery: 10, compactAtBytes: 1, snapshotChunkBytes: 200 });
    await a.index.init(DIM, EMB);
    await a.index.upsert(Array.from({ length: 400 }, (_, i) => rec(i + 1, `u${i % 2}`)));
    a.index.save();
    await a.index.saved();
    // The log outgrows the snapshot: a new one starts in the background, 200 bytes a step.
    for (let i = 0; i < 60 && !writing(); i++) {
      await a.index.upsert(Array.from({ length: 10 }, (_, j) => rec(1000 + i * 10 + j)));
      await tick();
    }
    // The appends before it are fsynced one after another first; the snapshot then takes a turn per 200 bytes.
    await until(writing);
    expect(readdirSync(dir).some((f) => f.endsWith(".tmp"))).toBe(true); // caught mid-write
    // The files as a crash now would leave them, opened by a fresh process: the old snapshot, its log, SQLite's log.
    a.sql.pragma("wal_checkpoint(TRUNCATE)");
    const copy = join(dir, "copy.db");
    for (const f of readdirSync(dir).filter((f) => f.startsWith("lilo.db"))) copyFileSync(join(dir, f), join(dir, f.replace("lilo.db", "copy.db")));
    // What a killed process left half-written is removed at the next start (a process id no longer running).
    const stale = `${copy}.vectors.999999999-0badcafe.tmp`;
    writeFileSync(stale, "half a snapshot");
    await reopened(copy);
    expect(existsSync(stale)).toBe(false);
    // A snapshot file that is garbage is rebuilt from SQLite.
    truncateSync(`${copy}.vectors`, 100);
    const c = await reopened(copy);
    expect(c.index.copyState().loadedFrom).toBe("sqlite");
  });

  it("a row moved by a removal while the snapshot is written in the background is neither lost nor doubled", async () => {
    const a = open({ saveEvery: 1_000_000, compactAtBytes: 1, snapshotChunkBytes: (DIM + 8) * 20 });
    await a.index.init(DIM, EMB);
    await a.index.upsert(Array.from({ length: 200 }, (_, i) => rec(i + 1)));
    a.index.save();
    await a.index.saved();
    await a.index.upsert([rec(500), ...Array.from({ length: 200 }, (_, i) => rec(i + 1))]);
    a.index.save(); // appended; the log is now larger than the snapshot: a new one starts in the background
    // Some 40 of 201 rows written (at most one more chunk of 20 taken and on its way to the file).
    const tmpSize = () => readdirSync(dir).reduce((n, f) => (f.endsWith(".tmp") ? n + statSync(join(dir, f)).size : n), 0);
    await until(() => tmpSize() >= 40 * (DIM + 8));
    expect(tmpSize()).toBeLessThan(120 * (DIM + 8));
    // Remove rows in the written part: the last rows (not written yet) move into their slots; new rows take the end.
    await a.index.delete([1, 2, 3, 4, 5].map((rowId) => ({ store: "notes" as const, rowId, userId: "u1" })));
    await a.index.upsert([rec(600), rec(601), rec(602)]);
    await a.index.saved();
    a.index.save();
    await a.index.saved();
    // Only the snapshot and its log (SQLite's change log emptied): everything must come from the files.
    a.sql.prepare("DELETE FROM memory_vector_changes").run();
    const b = await reopened();
    expect(b.index.copyState()).toMatchObject({ loadedFrom: "snapshot", entries: 199 });
  });

  it("prunes SQLite's change log only behind what is on disk, a bounded piece per turn of the event loop", async () => {
    const a = open({ saveEvery: Number.POSITIVE_INFINITY, keepLog: 100 });
    await a.index.init(DIM, EMB);
    await a.index.saved();
    for (let i = 0; i < 3; i++) await a.index.upsert(Array.from({ length: 4000 }, (_, j) => rec(1 + i * 4000 + j, `u${j % 5}`)));
    const changes = () => (a.sql.prepare("SELECT COUNT(*) AS n FROM memory_vector_changes").get() as { n: number }).n;
    a.index.save();
    expect(changes()).toBe(12_000); // nothing is on disk yet: nothing pruned
    await a.index.saved();
    // The first 2,000 entries went when the log reached the disk; the rest go a piece per turn.
    expect(changes()).toBeGreaterThanOrEqual(12_000 - 100 - 2000);
    await until(() => changes() === 100);
    expect(changes()).toBe(100);
    expect(a.sql.prepare("SELECT pruned_through AS p FROM memory_vector_meta").get()).toEqual({ p: 11_900 });
    await reopened();
  });
});
