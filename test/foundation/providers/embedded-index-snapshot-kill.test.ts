import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmbeddedIndex } from "../../../core/foundation/providers/embedded-index/embedded-index.ts";
import type { IndexStore, VectorKey } from "../../../core/foundation/ports/vector-index.ts";
import { openDatabase } from "../../../core/foundation/store/db.ts";
import { dataKeyOf, type DataKey } from "../../../core/foundation/store/data-key.ts";
import { entryScript } from "../../helpers/entry.ts";

/** The data key of the encrypted runs: the database encrypted, the snapshot and its log sealed. */
const KEY = "5e".repeat(32);

/** Runs the child until it SIGKILLs itself at the `nth` occurrence of `point` (see test/helpers/snapshot-kill-child.ts). */
function runUntilKilled(dir: string, point: string, nth: number, key: string | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entryScript("test/helpers/snapshot-kill-child.ts"), dir, point, String(nth), ...(key ? [key] : [])], {
      cwd: process.cwd(),
      stdio: ["ignore", "ignore", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("exit", (_code, signal) => (signal === "SIGKILL" ? resolve() : reject(new Error(`child was not killed at ${point}: ${err}`))));
  });
}

const key = (k: VectorKey<IndexStore>) => `${k.store}/${k.userId}/${k.rowId}`;

/** Opens what the killed process left and checks the index against SQLite: every row, its user, its vector. */
async function checkAgainstSqlite(dir: string, dataKey: DataKey | undefined): Promise<string> {
  const db = openDatabase(join(dir, "lilo.db"), dataKey);
  const index = new EmbeddedIndex(db, dataKey ? { dataKey } : {});
  try {
    await index.init(16, "kill-test");
    const rows = db.prepare("SELECT store, row_id AS rowId, user_id AS userId, vector FROM memory_vectors").all() as (VectorKey<IndexStore> & {
      vector: Buffer;
    })[];
    expect(rows.length).toBeGreaterThan(50);
    // No lost vector, none left over, none in another user's partition.
    expect((await index.keys()).map(key).sort()).toEqual(rows.map(key).sort());
    // Each row's int8 copy is its own current vector: searching its user's partition with it finds it first.
    for (const r of rows) {
      const vector = new Float32Array(r.vector.buffer.slice(r.vector.byteOffset, r.vector.byteOffset + r.vector.byteLength));
      const [top] = await index.search({ vector, store: r.store, userId: r.userId, k: 1 });
      expect(top?.rowId).toBe(r.rowId);
    }
    expect(index.copyState().rebuildNeeded).toBeUndefined();
    return index.copyState().loadedFrom ?? "none";
  } finally {
    await index.close();
    db.close();
  }
}

/**
 * kill -9 in the middle of each asynchronous file operation of the snapshot
 * (a chunk half written, before and after the snapshot's rename, before the
 * new log's rename, an append half written): the next start loads a
 * consistent index from the files or rebuilds it from SQLite — never a lost
 * vector, a removed one, or one in the wrong row or user.
 */
describe.each([
  ["unencrypted", undefined],
  ["encrypted (sealed snapshot)", KEY],
])("embedded index snapshot after kill -9 during an asynchronous write, %s", (_name, key) => {
  let dir: string;
  const loadedFrom: string[] = [];
  beforeAll(() => void (dir = mkdtempSync(join(tmpdir(), "lilo-snapkill-"))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // One database through every point: each child starts from what the one before left.
  const points: [string, number][] = [
    ["snapshot-chunk", 12],
    ["snapshot-rename", 3],
    ["after-snapshot-rename", 3],
    ["log-rename", 3],
    ["append", 30],
  ];
  for (const [point, nth] of points) {
    it(`${point} #${nth}`, async () => {
      await runUntilKilled(dir, point, nth, key);
      const from = await checkAgainstSqlite(dir, key ? dataKeyOf(key) : undefined);
      expect(["snapshot", "sqlite"]).toContain(from);
      loadedFrom.push(from);
    }, 60_000);
  }

  it("loads the index from the files after some of the kills (they are read, not always rebuilt)", () => {
    expect(loadedFrom).toContain("snapshot");
  });
});
