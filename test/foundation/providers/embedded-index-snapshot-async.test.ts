import fs, { mkdtempSync, rmSync, statSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmbeddedIndex } from "../../../core/foundation/providers/embedded-index/embedded-index.ts";
import { openDatabase, type Db } from "../../../core/foundation/store/db.ts";

const DIM = 32;
const vecOf = (id: number) => Float32Array.from({ length: DIM }, (_, i) => Math.sin(id * 12.9898 + i * 78.233));
const notes = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({ store: "notes" as const, rowId: from + i, userId: `u${(from + i) % 4}`, vector: vecOf(from + i) }));

/** The node:fs calls that write, sync or rename synchronously, i.e. on the event loop. */
const SYNC_WRITES = [
  "writeSync",
  "writeFileSync",
  "appendFileSync",
  "fsyncSync",
  "fdatasyncSync",
  "renameSync",
  "ftruncateSync",
  "truncateSync",
  "copyFileSync",
  "openSync",
  "closeSync",
] as const;

/** Records every synchronous write-side fs call from now on (the snapshot code's imports included); returns the log and an undo. */
function watchSyncWrites(): { calls: string[]; undo: () => void } {
  const calls: string[] = [];
  const target = fs as unknown as Record<string, (...a: unknown[]) => unknown>;
  const orig = SYNC_WRITES.map((n) => [n, target[n]!] as const);
  for (const [n, f] of orig) target[n] = (...a: unknown[]) => (calls.push(n), f(...a));
  syncBuiltinESMExports();
  return {
    calls,
    undo: () => {
      for (const [n, f] of orig) target[n] = f;
      syncBuiltinESMExports();
    },
  };
}

/**
 * The snapshot of the embedded index is written off the event loop: a save
 * only copies rows into buffers and queues asynchronous writes (fsync and
 * rename included), so it returns before its bytes are in the file, no
 * synchronous file call runs while the index saves, and the loop keeps
 * turning while a large snapshot is written.
 */
describe("EmbeddedIndex snapshot: no file write on the event loop", () => {
  let dir: string;
  let db: Db;
  let index: EmbeddedIndex;
  const file = () => join(dir, "lilo.db.vectors");
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "lilo-snapasync-"));
    db = openDatabase(join(dir, "lilo.db"));
    index = new EmbeddedIndex(db, { saveEvery: Number.POSITIVE_INFINITY, snapshotChunkBytes: 100 * (DIM + 8), compactAtBytes: 200_000, appendRows: 500 });
    await index.init(DIM, "emb-async");
    await index.saved(); // the first (empty) snapshot
  });
  afterAll(async () => {
    await index.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("saves without blocking the event loop", async () => {
    const log = `${file()}.log`;
    const watch = watchSyncWrites();
    try {
      await index.upsert(notes(1, 2000));
      const logBefore = statSync(log).size;
      index.save(); // 2,000 rows for the log, in pieces of 500
      expect(statSync(log).size).toBe(logBefore); // queued, not written
      await index.saved();
      expect(statSync(log).size).toBeGreaterThan(logBefore + 2000 * DIM);

      // 5,000 more: the log outgrows the snapshot, and after the appends a new snapshot is written, 100 rows a chunk.
      const snapshotBefore = statSync(file()).size;
      await index.upsert(notes(5000, 5000));
      index.save();
      let turns = 0;
      const counting = setInterval(() => turns++, 0);
      const written = index.saved().finally(() => clearInterval(counting));
      expect(statSync(log).size).toBeLessThan(logBefore + 2500 * (DIM + 20)); // nothing of it written yet
      // Meanwhile the index answers and takes changes (they go into the log after the new snapshot).
      expect(await index.search({ vector: vecOf(7), store: "notes", userId: "u3", k: 1 })).toEqual([expect.objectContaining({ rowId: 7 })]);
      await index.upsert(notes(20_000, 5));
      await index.delete([{ store: "notes", rowId: 8, userId: "u0" }]);
      await written;
      expect(statSync(file()).size).toBeGreaterThan(Math.max(snapshotBefore, 7000 * (DIM + 8))); // the new snapshot holds every row
      expect(turns).toBeGreaterThan(10); // the loop kept turning while the pieces and 70 chunks were written
      index.save();
      await index.saved();
      expect(watch.calls).toEqual([]);
    } finally {
      watch.undo();
    }
    // What the files hold is what SQLite holds.
    const other = new EmbeddedIndex(db);
    await other.init(DIM, "emb-async");
    expect(other.copyState()).toMatchObject({ loadedFrom: "snapshot", entries: 7004, rebuildNeeded: undefined });
  });
});
