import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { VectorIndexError } from "../../../core/foundation/errors.ts";
import { EmbeddedIndex } from "../../../core/foundation/providers/embedded-index/embedded-index.ts";
import type { IndexStore, VectorKey } from "../../../core/foundation/ports/vector-index.ts";
import { openDatabase, type Db } from "../../../core/foundation/store/db.ts";
import { VectorTable } from "../../../core/foundation/store/vectors/vector-table.ts";
import { basisVector } from "../../fakes/controlled-embedder.ts";
import { FIXTURE_DIM, FIXTURE_ENTRIES, SQLITE_VEC_DB } from "../../fixtures/sqlite-vec-db.ts";

const EMB = "controlled-8";
const sorted = (keys: VectorKey<IndexStore>[]) => keys.map((k) => `${k.store}/${k.userId}/${k.rowId}`).sort();
/** The data tables of the removed backend (not the vec0 declaration). */
const vec0Tables = (db: Db) =>
  db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'vec_memory_*' ORDER BY name`).pluck().all() as string[];
const hasEmbeddedRecord = (db: Db) =>
  db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'memory_vector_meta'`).get() !== undefined &&
  db.prepare(`SELECT 1 FROM memory_vector_meta`).get() !== undefined;

describe("EmbeddedIndex takes over the sqlite-vec backend's tables (read without the extension)", () => {
  let dir: string;
  let db: Db;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "lilo-vec0-"));
    copyFileSync(SQLITE_VEC_DB, join(dir, "lilo.db"));
    db = openDatabase(join(dir, "lilo.db"));
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("copies exactly the live vectors, each with its user and store", async () => {
    const index = new EmbeddedIndex(db, { snapshotPath: null });
    await index.init(FIXTURE_DIM, EMB);
    const keys = await index.keys();
    expect(keys).toHaveLength(FIXTURE_ENTRIES.filter((f) => !f.forgotten).length);
    expect([...new Set(keys.map((k) => `${k.store}/${k.userId}`))].sort()).toEqual(
      [...new Set(FIXTURE_ENTRIES.filter((f) => !f.forgotten).map((f) => `${f.store}/${f.userId}`))].sort(),
    );
    for (const f of FIXTURE_ENTRIES.filter((e) => !e.forgotten)) {
      const hits = await index.search({ vector: Float32Array.from(basisVector(FIXTURE_DIM, f.axis)), store: f.store, userId: f.userId, k: 5, minScore: 0.5 });
      expect(hits, f.text).toHaveLength(1);
      expect(hits[0]!.score).toBeCloseTo(1, 5); // the same floats, not re-embedded or rounded
    }
    const gone = FIXTURE_ENTRIES.find((f) => f.forgotten)!;
    expect(
      await index.search({ vector: Float32Array.from(basisVector(FIXTURE_DIM, gone.axis)), store: "notes", userId: "chris", k: 5, minScore: 0.5 }),
    ).toEqual([]);
    expect(vec0Tables(db)).toEqual([]);
    expect(() => db.prepare("SELECT vec_version()")).toThrow(/no such function/); // the extension was never loaded
    await index.close();
  });

  it("leaves the old vectors untouched for another model", async () => {
    const index = new EmbeddedIndex(db, { snapshotPath: null });
    await expect(index.init(FIXTURE_DIM, "another-model")).rejects.toThrow(/older Lilo.*"controlled-8".*lilo reindex/s);
    expect(vec0Tables(db)).toContain("vec_memory_meta");
    expect(hasEmbeddedRecord(db)).toBe(false); // nothing half done
    // The same model still takes them over.
    const same = new EmbeddedIndex(db, { snapshotPath: null });
    await same.init(FIXTURE_DIM, EMB);
    expect(await same.keys()).toHaveLength(6);
    await same.close();
  });

  it("drops them on `lilo reindex` (reset) for another model", async () => {
    const index = new EmbeddedIndex(db, { snapshotPath: null });
    await index.reset(16, "another-model");
    expect(vec0Tables(db)).toEqual([]);
    await index.init(16, "another-model");
    expect(await index.keys()).toEqual([]);
    await index.close();
  });

  it("changes nothing when the tables do not add up", async () => {
    db.exec("DELETE FROM vec_memory_rowids WHERE rowid = 16"); // a live slot the row list no longer names
    const index = new EmbeddedIndex(db, { snapshotPath: null });
    const err = await index.init(FIXTURE_DIM, EMB).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VectorIndexError);
    expect((err as Error).message).toMatch(/holds 6 live vectors, vec_memory_rowids lists 5/);
    expect(vec0Tables(db)).toContain("vec_memory_vector_chunks00");
    expect(hasEmbeddedRecord(db)).toBe(false);
  });

  it("only drops leftover sqlite-vec tables once the embedded index has the vectors", async () => {
    const table = new VectorTable(db);
    table.reset(FIXTURE_DIM, EMB);
    db.transaction(() => table.put([{ store: "notes", rowId: 99, userId: "chris", vector: Float32Array.from(basisVector(FIXTURE_DIM, 7)) }]))();
    const index = new EmbeddedIndex(db, { snapshotPath: null });
    await index.init(FIXTURE_DIM, EMB);
    expect(sorted(await index.keys())).toEqual(["notes/chris/99"]);
    expect(vec0Tables(db)).toEqual([]);
    await index.close();
  });

  it("takes them over when the embedded index's tables exist but are empty (made by an earlier Lilo before it held anything)", async () => {
    new VectorTable(db).reset(FIXTURE_DIM, EMB);
    const index = new EmbeddedIndex(db, { snapshotPath: null });
    await index.init(FIXTURE_DIM, EMB);
    expect(await index.keys()).toHaveLength(6);
    expect(vec0Tables(db)).toEqual([]);
    await index.close();
  });
});
