import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Memory } from "../../core/memory/memory.ts";
import { openDatabase, type Db } from "../../core/foundation/store/db.ts";
import { memoryTable } from "../helpers/memory-table.ts";
import { EmbeddedIndex } from "../../core/foundation/providers/embedded-index/embedded-index.ts";
import { ControlledEmbedder, basisVector, vectorWithCosine } from "../fakes/controlled-embedder.ts";
import { fixedClock, LiloError, type Embedder, type VectorIndex } from "../../core/index.ts";
import { checkConsistency, repairConsistency } from "../../core/memory/maintenance.ts";

/** Wraps an index so a test can make its next write fail. */
function flaky(inner: VectorIndex): VectorIndex & { failNext: boolean } {
  const w: VectorIndex & { failNext: boolean } = {
    name: inner.name,
    failNext: false,
    init: (d, id) => inner.init(d, id),
    upsert: async (records) => {
      if (w.failNext) {
        w.failNext = false;
        throw new Error("disk full");
      }
      return inner.upsert(records);
    },
    delete: (keys) => inner.delete(keys),
    search: (q) => inner.search(q),
    keys: () => inner.keys(),
    reset: (d, id) => inner.reset(d, id),
    close: () => inner.close(),
  };
  return w;
}

describe("Memory: row and vector change together", () => {
  let dir: string;
  let db: Db;
  let index: ReturnType<typeof flaky>;
  let memory: Memory;
  /** The notes table on the test's own database, beside the memory service. */
  const notes = () => memoryTable(db, "notes");
  const embedder = new ControlledEmbedder(16);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "lilo-mem-"));
    db = openDatabase(join(dir, "lilo.db"));
    index = flaky(new EmbeddedIndex(db));
    memory = new Memory(db, embedder, index, fixedClock("2026-12-02T10:00:00Z"), { dedupMinScore: 0.82 });
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("leaves no row behind when the vector cannot be written", async () => {
    index.failNext = true;
    await expect(memory.add({ text: "x", userId: "u" })).rejects.toBeInstanceOf(LiloError);
    expect(db.prepare("SELECT count(*) AS n FROM notes").get()).toEqual({ n: 0 });
    expect(await index.keys()).toEqual([]);
  });

  it("puts the old text back when re-embedding an edit fails", async () => {
    const r = await memory.add({ text: "alt", userId: "u" });
    if (!r.added) throw new Error("setup");
    index.failNext = true;
    await expect(memory.edit("notes", r.id, "neu")).rejects.toThrow(/undone/);
    expect(notes().get(r.id)?.text).toBe("alt");
  });

  it("a superseded note leaves search but stays in SQLite until restore brings it back with its vector", async () => {
    embedder.set("Kino", basisVector(16, 0)).set("Christian mag Kino", basisVector(16, 0));
    const r = await memory.add({ text: "Christian mag Kino", userId: "u" });
    if (!r.added) throw new Error("setup");
    await memory.supersede("notes", r.id);
    expect(await memory.search("Kino", { userId: "u" })).toEqual([]);
    expect(notes().get(r.id)?.superseded_at).toBe("2026-12-02T10:00:00.000Z");
    expect(await index.keys()).toEqual([]);
    await memory.restore("notes", r.id);
    expect((await memory.search("Kino", { userId: "u" })).map((h) => h.id)).toEqual([r.id]);
  });

  it("keeps the diary free of deduplication when asked", async () => {
    await memory.add({ text: "Heute war ruhig.", userId: "u", store: "diary", allowDuplicate: true });
    const again = await memory.add({ text: "Heute war ruhig.", userId: "u", store: "diary", allowDuplicate: true });
    expect(again.added).toBe(true);
  });

  it("stores a fact once when two extractions add it at the same time", async () => {
    embedder.set("Christian mag Kino", basisVector(16, 4)).set("Christian geht gern ins Kino", vectorWithCosine(basisVector(16, 4), 0.9, 5));
    const same = await Promise.all([memory.add({ text: "Christian trinkt Tee", userId: "u" }), memory.add({ text: "Christian trinkt Tee", userId: "u" })]);
    const similar = await Promise.all([
      memory.add({ text: "Christian mag Kino", userId: "u" }),
      memory.add({ text: "Christian geht gern ins Kino", userId: "u" }),
    ]);
    expect(same.map((r) => r.added)).toEqual([true, false]);
    expect(similar[1]).toMatchObject({ added: false, reason: "similar" });
    expect(db.prepare("SELECT text FROM notes ORDER BY id").all()).toEqual([{ text: "Christian trinkt Tee" }, { text: "Christian mag Kino" }]);
  });

  it("never leaves a vector behind when an edit and a forget of one note overlap", async () => {
    const r = await memory.add({ text: "alt", userId: "u" });
    if (!r.added) throw new Error("setup");
    await Promise.allSettled([memory.edit("notes", r.id, "neu"), memory.forget("notes", r.id)]);
    const report = await checkConsistency(memory, index);
    expect(report).toMatchObject({ rows: 0, vectors: 0, vectorsWithoutRow: [] });
  });

  it("puts a restored row back as it was when its vector cannot be written", async () => {
    const r = await memory.add({ text: "Christian wohnt in Köln", userId: "u" });
    if (!r.added) throw new Error("setup");
    const hidden = await memory.supersede("notes", r.id);
    const before = notes().get(r.id);
    index.failNext = true;
    await expect(memory.restore("notes", r.id, "Christian wohnt in Bonn")).rejects.toThrow(/undone/);
    expect(notes().get(r.id)).toEqual(before);
    expect(before?.text).toBe(hidden.text);
    expect(await index.keys()).toEqual([]);
  });

  it("refuses an empty edit with a typed error", async () => {
    const r = await memory.add({ text: "x", userId: "u" });
    if (!r.added) throw new Error("setup");
    await expect(memory.edit("notes", r.id, "   ")).rejects.toMatchObject({ code: "invalid-input" });
    expect(notes().get(r.id)?.text).toBe("x");
  });

  it("refuses an unreadable date with a typed error", async () => {
    await expect(memory.add({ text: "y", userId: "u", createdAt: "gestern" })).rejects.toMatchObject({ code: "invalid-input" });
  });

  it("tries to load the embedder again after a failed first use", async () => {
    let fail = true;
    const flakyEmbedder: Embedder = {
      id: embedder.id,
      dimension: async () => {
        if (fail) throw new Error("no network");
        return embedder.dimension();
      },
      embed: (texts) => embedder.embed(texts),
    };
    const m = new Memory(db, flakyEmbedder, index, fixedClock("2026-12-02T10:00:00Z"), { dedupMinScore: 0.82 });
    await expect(m.add({ text: "x", userId: "u" })).rejects.toThrow(/no network/);
    fail = false;
    await expect(m.add({ text: "x", userId: "u" })).resolves.toMatchObject({ added: true });
  });

  it("repair gives no vector to a row deleted since the check", async () => {
    const a = await memory.add({ text: "a", userId: "u" });
    if (!a.added) throw new Error("setup");
    const orphanRow = notes().insert("u", "b", "2026-12-02T10:00:00Z");
    await index.delete([{ store: "notes", rowId: a.id, userId: "u" }]);
    const report = await checkConsistency(memory, index);
    expect(report.rowsWithoutVector.map((k) => k.rowId).sort()).toEqual([a.id, orphanRow].sort());
    notes().delete(orphanRow); // the bot forgot it meanwhile
    await repairConsistency(memory, index, embedder, report);
    expect(await checkConsistency(memory, index)).toMatchObject({ rows: 1, vectors: 1, rowsWithoutVector: [], vectorsWithoutRow: [] });
  });
});
