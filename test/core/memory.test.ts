import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Memory } from "../../core/memory/memory.ts";
import { openDatabase, type Db } from "../../core/store/db.ts";
import { SqliteVecIndex } from "../../core/providers/sqlite-vec-index.ts";
import { ControlledEmbedder, basisVector } from "../fakes/controlled-embedder.ts";
import { fixedClock, LiloError, type VectorIndex } from "../../core/index.ts";

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
  const embedder = new ControlledEmbedder(16);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "lilo-mem-"));
    db = openDatabase(join(dir, "lilo.db"));
    index = flaky(new SqliteVecIndex(db));
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
    expect(memory.rows.notes.get(r.id)?.text).toBe("alt");
  });

  it("supersedes and restores: hidden from search, kept in SQLite, back with its vector", async () => {
    embedder.set("Kino", basisVector(16, 0)).set("Christian mag Kino", basisVector(16, 0));
    const r = await memory.add({ text: "Christian mag Kino", userId: "u" });
    if (!r.added) throw new Error("setup");
    await memory.supersede("notes", r.id);
    expect(await memory.search("Kino", { userId: "u" })).toEqual([]);
    expect(memory.rows.notes.get(r.id)?.supersededAt).toBe("2026-12-02T10:00:00.000Z");
    expect(await index.keys()).toEqual([]);
    await memory.restore("notes", r.id);
    expect((await memory.search("Kino", { userId: "u" })).map((h) => h.id)).toEqual([r.id]);
  });

  it("keeps the diary free of deduplication when asked", async () => {
    await memory.add({ text: "Heute war ruhig.", userId: "u", store: "diary", allowDuplicate: true });
    const again = await memory.add({ text: "Heute war ruhig.", userId: "u", store: "diary", allowDuplicate: true });
    expect(again.added).toBe(true);
  });
});
