import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Memory } from "../../core/memory/memory.ts";
import { openDatabase, type Db } from "../../core/foundation/store/db.ts";
import { memoryTable } from "../helpers/memory-table.ts";
import { EmbeddedIndex } from "../../core/foundation/providers/embedded-index/embedded-index.ts";
import { QdrantIndex } from "../../core/foundation/providers/qdrant-index.ts";
import { HashEmbedder } from "../../core/foundation/providers/hash-embedder.ts";
import { fixedClock, type VectorIndex } from "../../core/index.ts";
import { checkConsistency, repairConsistency } from "../../core/memory/maintenance.ts";
import { startFakeQdrant, type FakeQdrant } from "../fakes/fake-qdrant.ts";

/** An index whose deletes "crash" (the process dies between the steps of a forget) while `dead` is set. */
function crashing(inner: VectorIndex): VectorIndex & { dead: boolean } {
  const w: VectorIndex & { dead: boolean } = {
    name: inner.name,
    dead: false,
    init: (d, id) => inner.init(d, id),
    upsert: (records) => inner.upsert(records),
    delete: async (keys) => {
      if (w.dead) throw new Error("killed");
      return inner.delete(keys);
    },
    search: (q) => inner.search(q),
    keys: () => inner.keys(),
    reset: (d, id) => inner.reset(d, id),
    close: () => inner.close(),
  };
  return w;
}

const backends: [string, (db: Db) => Promise<{ index: VectorIndex; close(): Promise<void> }>][] = [
  ["embedded", async (db) => ({ index: new EmbeddedIndex(db), close: async () => {} })],
  [
    "qdrant",
    async () => {
      const fake: FakeQdrant = await startFakeQdrant();
      return { index: new QdrantIndex({ url: fake.url, collection: `t${Date.now()}` }), close: () => fake.close() };
    },
  ],
];

describe.each(backends)("forget that cannot come back (%s)", (_name, makeIndex) => {
  let dir: string;
  let db: Db;
  let index: VectorIndex & { dead: boolean };
  let memory: Memory;
  /** The notes table on the test's own database, beside the memory service. */
  const notes = () => memoryTable(db, "notes");
  let closeIndex: () => Promise<void>;
  const embedder = new HashEmbedder(64);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "lilo-forget-"));
    db = openDatabase(join(dir, "lilo.db"));
    const made = await makeIndex(db);
    closeIndex = made.close;
    index = crashing(made.index);
    memory = new Memory(db, embedder, index, fixedClock("2026-12-02T10:00:00Z"), { dedupMinScore: 0.99 });
  });
  afterEach(async () => {
    await index.close();
    await closeIndex();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("an interrupted forget is a tombstone: hidden at once, removed by doctor's repair without re-embedding", async () => {
    const kept = await memory.add({ text: "Christian trinkt Tee", userId: "u" });
    const gone = await memory.add({ text: "Christian hat ein Geheimnis", userId: "u" });
    if (!gone.added || !kept.added) throw new Error("setup");
    index.dead = true;
    await expect(memory.forget("notes", gone.id)).rejects.toThrow("killed");
    index.dead = false;
    // Hidden at once: not found by meaning, not listed, not editable.
    expect((await memory.search("Geheimnis", { userId: "u" })).map((h) => h.id)).not.toContain(gone.id);
    expect(notes().liveIds("u")).toEqual([kept.id]);
    const report = await checkConsistency(memory, index);
    expect(report.halfDeleted.map((k) => k.rowId)).toEqual([gone.id]);
    expect(report.rowsWithoutVector).toEqual([]);
    expect(report.vectorsWithoutRow).toEqual([]);
    await repairConsistency(memory, index, embedder, report);
    expect(notes().get(gone.id)).toBeUndefined();
    expect((await index.keys()).map((k) => k.rowId)).toEqual([kept.id]);
    const after = await checkConsistency(memory, index);
    expect([after.halfDeleted, after.rowsWithoutVector, after.vectorsWithoutRow]).toEqual([[], [], []]);
    expect((await memory.search("Geheimnis", { userId: "u" })).map((h) => h.id)).not.toContain(gone.id);
  });

  it("a half-added row (vector never written) is embedded by doctor", async () => {
    await memory.init();
    const id = notes().insert("u", "Christian spielt Schach", "2026-12-02T10:00:00Z");
    const report = await checkConsistency(memory, index);
    expect(report.rowsWithoutVector.map((k) => k.rowId)).toEqual([id]);
    expect(report.halfDeleted).toEqual([]);
    await repairConsistency(memory, index, embedder, report);
    expect((await memory.search("Schach", { userId: "u" })).map((h) => h.id)).toEqual([id]);
  });
});
