import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, type Db } from "../../../../core/foundation/store/db.ts";
import { TextRows } from "../../../../core/foundation/store/text-rows.ts";
import { keywordRows } from "../../../../core/foundation/store/keyword-index.ts";
import { MemoryKeywordRows } from "../../../../core/foundation/store/memory-keyword-rows.ts";
import { VECTOR_STORES, type VectorStore } from "../../../../core/foundation/ports/vector-index.ts";
import { MemoryKeywordIndex, type MemoryKeywordRanker } from "../../../../core/memory/recall/keyword-index/memory-keyword-index.ts";
import { ftsQuery } from "../../../../core/memory/recall/keyword-query.ts";
import { QUERIES, pick, sentence } from "./keyword-texts.ts";
import { makeTestLilo, type TestLilo } from "../../../helpers/test-lilo.ts";
import { ControlledEmbedder } from "../../../fakes/controlled-embedder.ts";

/**
 * The memory stores' keyword index in memory must rank exactly as FTS5's
 * bm25 over `${store}_user_fts` in a one-user database (keyword-index.ts's
 * `keywordRows`, the search's SQL: live rows only) — same rows, same order,
 * the same scores to the bit — through inserts, edits, superseding,
 * forgetting, deletes, writes of a second connection and restarts, in every
 * store; and a user never sees another's rows.
 *
 * The reference is FTS5 over the rows as they are now: these tables are
 * contentless (`contentless_delete=1`), and such a table keeps a deleted or
 * edited row's old version in its row count and average length for good
 * (SQLite 3.53: 20 rows, one deleted, bm25 still counts 20), a drift the
 * index does not copy (it could not after a restart). So the reference is
 * the same rows written into a fresh database's table.
 */
const ALL = 1_000_000;

/** Counts the searches the index answered, to prove it was not bypassed. */
class Spy implements MemoryKeywordRanker {
  answered = 0;
  constructor(readonly index: MemoryKeywordIndex) {}
  ranked(store: VectorStore, userId: string, match: string, limit: number) {
    const r = this.index.ranked(store, userId, match, limit);
    if (r) this.answered++;
    return r;
  }
  whenStoreReady(store: VectorStore, userId: string) {
    return this.index.whenStoreReady(store, userId);
  }
}

let at = 0;
/** Inserts `n` rows of the store for the user as the stores write them (the triggers fill FTS5 and the change log). */
function addRows(db: Db, store: VectorStore, userId: string, n: number): void {
  const insert = db.prepare(`INSERT INTO ${store} (user_id, text, created_at, updated_at) VALUES (?, ?, ?, ?)`);
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      // Some rows share a time: a build reads pages by (time, id).
      const when = new Date(Date.UTC(2025, 0, 1) + Math.floor(at++ / 3) * 60_000).toISOString();
      insert.run(userId, sentence(), when, when);
    }
  })();
}

describe("memory stores' keyword index in memory = FTS5's bm25", () => {
  let dir: string;
  let db: Db;
  let index: MemoryKeywordIndex;
  let spy: Spy;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "lilo-memkw-"));
    db = openDatabase(join(dir, "lilo.db"));
    addRows(db, "notes", "anna", 400);
    for (const store of ["important", "thoughts", "diary"] as const) addRows(db, store, "anna", 60);
    index = new MemoryKeywordIndex(new MemoryKeywordRows(db), { maxBytes: 64 * 1024 * 1024, sliceRows: 50, patchMax: 150 });
    spy = new Spy(index);
    expect(index.ranked("notes", "anna", '"kino"*', 10)).toBeUndefined(); // 400 rows, slices of 50: not ready at once, FTS5 answers
    for (const store of VECTOR_STORES) await index.whenStoreReady(store, "anna");
  });
  afterAll(() => {
    index.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A fresh database holding the same rows: FTS5's figures for them without the deleted rows' drift (see above). */
  function reference(): Db {
    const fresh = openDatabase(":memory:");
    fresh.prepare(`ATTACH DATABASE ? AS src`).run(join(dir, "lilo.db"));
    for (const store of VECTOR_STORES) fresh.exec(`INSERT INTO main.${store} SELECT * FROM src.${store} ORDER BY id`);
    return fresh;
  }

  /** Every store and query: the index's ranking equals FTS5's (all hits, and the first few as a search reads them). */
  function compareAll(what: string): void {
    const before = spy.answered;
    const fts = reference();
    const queries = [...QUERIES, ftsQuery([sentence()])!, ftsQuery([sentence(), sentence()])!];
    for (const store of VECTOR_STORES) {
      for (const match of queries) {
        const want = keywordRows(fts, store, "anna", match, ALL);
        if (what === "built") expect(keywordRows(db, store, "anna", match, ALL)).toEqual(want); // nothing deleted yet: the table itself
        expect(spy.ranked(store, "anna", match, ALL), `${what}: ${store} ${match}`).toEqual(want); // ids and scores to the bit, same order
        expect(spy.ranked(store, "anna", match, 3), `${what}: first 3 of ${store} ${match}`).toEqual(want.slice(0, 3));
      }
    }
    expect(spy.answered - before).toBe(queries.length * VECTOR_STORES.length * 2); // the index answered every search, FTS5 was not asked instead
    fts.close();
  }

  it("ranks as FTS5 after the build", () => compareAll("built"));

  it("stays equal through inserts, edits, superseding, forgetting and deletes (the change log)", () => {
    for (let pass = 0; pass < 2; pass++) {
      for (const store of VECTOR_STORES) {
        addRows(db, store, "anna", 15);
        const rows = new TextRows(db, store);
        // Live rows only: a row superseded or forgotten in the first pass is in no ranking, so handing it to "ben" below would find nothing.
        const ids = db.prepare(`SELECT id FROM ${store} WHERE user_id = 'anna' AND superseded_at IS NULL ORDER BY random() LIMIT 14`).pluck().all() as number[];
        for (const id of ids.slice(0, 4)) rows.updateText(id, sentence(), "2026-02-01T00:00:00Z");
        for (const id of ids.slice(4, 6)) rows.setSuperseded(id, "2026-02-01T00:00:00Z", "2026-02-01T00:00:00Z");
        rows.setSuperseded(ids[6]!, null, "2026-02-02T00:00:00Z"); // restored
        for (const id of ids.slice(7, 9)) rows.tombstone(id, "2026-02-01T00:00:00Z");
        for (const id of ids.slice(9, 11)) rows.delete(id);
        db.prepare(`UPDATE ${store} SET created_at = '2020-01-01T00:00:00Z' WHERE id = ?`).run(ids[11]); // moved in time
        // Given to another user (gone from anna's hits at once), then back.
        db.prepare(`UPDATE ${store} SET user_id = 'ben', text = 'Kino' WHERE id = ?`).run(ids[12]);
        expect(index.ranked(store, "anna", '"kino"', ALL)!.map((h) => h.rowId)).not.toContain(ids[12]);
        expect(index.ranked(store, "ben", '"kino"', ALL)!.map((h) => h.rowId)).toEqual([ids[12]]); // one row: built at once
        db.prepare(`UPDATE ${store} SET user_id = 'anna' WHERE id = ?`).run(ids[12]);
        expect(index.ranked(store, "ben", '"kino"', ALL)).toEqual([]);
      }
      compareAll(`pass ${pass}`);
    }
  });

  it("sees a write of another connection (another process) at the next search", () => {
    const other = openDatabase(join(dir, "lilo.db"));
    try {
      other.prepare(`INSERT INTO notes (user_id, text, created_at, updated_at) VALUES ('anna', 'Zauberwürfel Kino', '2027-01-01', '2027-01-01')`).run();
      other
        .prepare(`UPDATE notes SET text = 'Zauberwürfel gelöst' WHERE id = (SELECT min(id) FROM notes WHERE user_id = 'anna' AND superseded_at IS NULL)`)
        .run();
    } finally {
      other.close();
    }
    const hits = index.ranked("notes", "anna", '"zauberwurfel"*', 10)!.map((h) => h.rowId);
    const [added, edited] = db.prepare(`SELECT max(id), min(id) FROM notes WHERE user_id = 'anna' AND superseded_at IS NULL`).raw().get() as [number, number];
    expect(hits.sort()).toEqual([added, edited].sort()); // a stale index would find neither
    compareAll("after another connection wrote");
  });

  it("rebuilds when far behind (a large import), answering by FTS5 meanwhile", async () => {
    addRows(db, "notes", "anna", 200); // more changes than patchMax (150)
    expect(index.ranked("notes", "anna", '"kino"*', 10)).toBeUndefined();
    for (const store of VECTOR_STORES) await index.whenStoreReady(store, "anna");
    compareAll("after a rebuild");
  });

  it("ranks the same after a restart (a new process on the same file)", async () => {
    db.close();
    db = openDatabase(join(dir, "lilo.db"));
    index.close();
    index = new MemoryKeywordIndex(new MemoryKeywordRows(db), { maxBytes: 64 * 1024 * 1024 });
    spy = new Spy(index);
    for (const store of VECTOR_STORES) await index.whenStoreReady(store, "anna");
    compareAll("restarted");
  });
});

describe("memory stores' keyword index: users apart, memory bound, wired into memory search", () => {
  /** Three users' notes in one database and an index bounded to 1 byte, each user's partition built in turn before `check` runs. */
  async function threeUsers(check: (db: Db, index: MemoryKeywordIndex, user: string) => void): Promise<void> {
    const dir = mkdtempSync(join(tmpdir(), "lilo-memkwusers-"));
    const db = openDatabase(join(dir, "lilo.db"));
    try {
      for (const u of ["anna", "ben", "cleo"]) addRows(db, "notes", u, 300);
      const index = new MemoryKeywordIndex(new MemoryKeywordRows(db), { maxBytes: 1 });
      for (const u of ["anna", "ben", "cleo"]) {
        await index.whenStoreReady("notes", u);
        check(db, index, u);
      }
      index.close();
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it("ranks only the searching user's rows, those FTS5 finds for the user", () =>
    threeUsers((db, index, u) => {
      const own = new Set(db.prepare(`SELECT id FROM notes WHERE user_id = ?`).pluck().all(u) as number[]);
      let found = 0;
      for (const match of QUERIES) {
        const got = index.ranked("notes", u, match, ALL)!.map((h) => h.rowId);
        found += got.length;
        expect(got.every((id) => own.has(id))).toBe(true);
        // Scores differ: N, n and lengths are the user's own.
        expect(new Set(got)).toEqual(new Set(keywordRows(db, "notes", u, match, ALL).map((h) => h.rowId)));
      }
      expect(found).toBeGreaterThan(100);
    }));

  it("keeps only the partition searched now within a bound of one byte", () =>
    threeUsers((_db, index, u) => {
      index.ranked("notes", u, QUERIES[0]!, ALL);
      expect(index.stats().parts).toBe(1);
    }));

  /** Anna's 120 notes in one Lilo, and a second Lilo on the same data directory ranking by FTS5 (LILO_MEMORY_KEYWORD_INDEX_MB=0). */
  async function twoLilos(run: (t: TestLilo, fts: TestLilo) => Promise<void>): Promise<void> {
    const t = makeTestLilo({}, { embedder: new ControlledEmbedder(512) });
    for (let i = 0; i < 120; i++) await t.lilo.memory.add({ userId: "anna", text: `${sentence()} ${i}`, allowDuplicate: true });
    const fts = makeTestLilo({ LILO_DATA_DIR: t.dir, LILO_MEMORY_KEYWORD_INDEX_MB: "0" }, { embedder: t.embedder }); // the same vectors for the same texts
    try {
      await run(t, fts);
    } finally {
      await fts.cleanup(); // its own (unused) temp dir; the data dir is t's
      await t.cleanup();
    }
  }

  it("memory.search ranks its keyword side by the index as FTS5 does", () =>
    twoLilos(async (t, fts) => {
      const search = async (lilo: typeof t.lilo, q: string) =>
        (await lilo.memory.search(q, { userId: "anna", k: 20 })).map((h) => [h.id, h.keyword, h.fused] as const);
      for (const q of ["Kino", "Straße und Café", "Garten, Hund, Urlaub", pick(["Oma", "Öl"])]) {
        await search(t.lilo, q); // starts the build of anna's notes (500 rows a slice: done at once)
        const mine = await search(t.lilo, q);
        expect(mine.some(([, kw]) => kw !== undefined)).toBe(true);
        expect(mine, q).toEqual(await search(fts.lilo, q));
      }
    }));

  it("memory.search finds a note another Lilo (process) added by its word", () =>
    twoLilos(async (t, fts) => {
      // The first search starts the build of anna's index, the second ranks by it.
      for (let i = 0; i < 2; i++) await t.lilo.memory.search("Kino", { userId: "anna", k: 20 });
      const { id } = (await fts.lilo.memory.add({ userId: "anna", text: "Zauberwürfel gelöst", allowDuplicate: true })) as { id: number };
      expect((await t.lilo.memory.search("Zauberwürfel", { userId: "anna", k: 5 })).find((h) => h.id === id)?.keyword).toBeGreaterThan(0);
    }));

  it("memory.search never ranks another user's note, whatever its words", () =>
    twoLilos(async (t) => {
      const ben = (await t.lilo.memory.add({ userId: "ben", text: "Kino Kino Kino mit Ben", allowDuplicate: true })) as { id: number };
      expect((await t.lilo.memory.search("Kino", { userId: "anna", k: 50 })).map((h) => h.id)).not.toContain(ben.id);
      expect((await t.lilo.memory.search("Kino", { userId: "ben", k: 50 })).map((h) => h.id)).toEqual([ben.id]);
    }));
});
