import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, type Db } from "../../../../core/foundation/store/db.ts";
import { ChatLog } from "../../../../core/foundation/store/chat-log.ts";
import { importMessages } from "../../../../core/foundation/store/chat-import.ts";
import { ChatKeywordRows } from "../../../../core/foundation/store/chat-keyword-rows.ts";
import { ChatSearchTable, type CandidateFilter, type CandidateRow, type ChatRanker } from "../../../../core/foundation/store/chat-search.ts";
import { ChatKeywordIndex } from "../../../../core/memory/recall/keyword-index/chat-keyword-index.ts";
import { ftsQuery } from "../../../../core/memory/recall/keyword-query.ts";
import { QUERIES, pick, sentence } from "./keyword-texts.ts";

/**
 * The chat log's keyword index in memory must rank exactly as FTS5's bm25
 * over messages_ctx_user_fts in a one-user database — same rows, same order,
 * the same scores to the bit — through inserts, edits, forgetting, deletes, writes of a
 * second connection and restarts, with the search's filters; and a user
 * never sees another's rows.
 */
let day = 0;
/** Messages in conversations of a few, a day apart (so they become separate conversations). */
function messages(userId: string, n: number) {
  return Array.from({ length: n }, (_, i) => ({
    userId,
    role: i % 2 ? ("assistant" as const) : ("user" as const),
    text: sentence(),
    createdAt: new Date(Date.UTC(2025, 0, 1) + (day + Math.floor(i / 7)) * 86_400_000 + (i % 7) * 60_000).toISOString(),
  })).map((m, i, all) => (i === all.length - 1 ? ((day += Math.ceil(n / 7) + 1), m) : m));
}

/** FTS5's own ranking of the user's rows: [id, score] best first. */
function fts5Ranked(db: Db, userId: string, match: string, contextWeight: number): [number, number][] {
  const base = `((SELECT slot FROM fts_users WHERE user_id = @userId) * 4294967296)`;
  return db
    .prepare(
      `SELECT rowid - ${base} AS id, -bm25(messages_ctx_user_fts, 1.0, ${contextWeight}) AS score FROM messages_ctx_user_fts
         WHERE messages_ctx_user_fts MATCH @match AND rowid BETWEEN ${base} AND ${base} + 4294967295 ORDER BY score DESC, rowid DESC`,
    )
    .raw()
    .all({ userId, match }) as [number, number][];
}

function expectSame(got: [number, number][] | CandidateRow[], want: [number, number][] | CandidateRow[], what: string): void {
  const norm = (xs: [number, number][] | CandidateRow[]) => xs.map((x) => (Array.isArray(x) ? { id: x[0], score: x[1] } : x));
  const [g, w] = [norm(got), norm(want)];
  expect(
    g.map((x) => x.id),
    what,
  ).toEqual(w.map((x) => x.id));
  // Bit for bit: the same formula in the same order, and the C library's log for idf (Math.log differs in the last bit now and then).
  expect(
    g.map((x) => x.score),
    what,
  ).toEqual(w.map((x) => x.score));
}

/** Counts the searches the index answered, to prove it was not bypassed. */
class Spy implements ChatRanker {
  answered = 0;
  constructor(readonly index: ChatKeywordIndex) {}
  candidates(f: CandidateFilter) {
    const r = this.index.candidates(f);
    if (r) this.answered++;
    return r;
  }
}

/** The index's ranking of all the user's hits (no filter): [id, score]. */
const ranked = (index: ChatKeywordIndex, userId: string, match: string, contextWeight: number): [number, number][] | undefined => {
  const it = index.candidates({ userId, match, contextWeight });
  return it && [...it].map((r) => [r.id, r.score]);
};

describe("chat-log keyword index in memory = FTS5's bm25", () => {
  let dir: string;
  let db: Db;
  let log: ChatLog;
  let index: ChatKeywordIndex;
  let spy: Spy;
  const fts = () => new ChatSearchTable(db);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "lilo-kwindex-"));
    db = openDatabase(join(dir, "lilo.db"));
    log = new ChatLog(db);
    importMessages(db, log, messages("anna", 500), 60);
    index = new ChatKeywordIndex(new ChatKeywordRows(db), { maxBytes: 64 * 1024 * 1024, sliceRows: 100, firstPage: 7, patchMax: 150 });
    spy = new Spy(index);
    expect(ranked(index, "anna", '"kino"*', 0.5)).toBeUndefined(); // 500 rows, slices of 100: not ready at the first search, FTS5 answers
    await index.whenReady("anna");
  });
  afterAll(() => {
    index.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Every query and weight: the index's ranking equals FTS5's, and so do the search's candidates with every filter. */
  function compareAll(what: string): void {
    const before = spy.answered;
    const table = new ChatSearchTable(db, 5, spy);
    const hidden = new Set(db.prepare(`SELECT id FROM messages WHERE redacted_at IS NOT NULL`).pluck().all() as number[]);
    const convs = db.prepare(`SELECT DISTINCT conversation_id FROM messages WHERE user_id = 'anna' ORDER BY 1`).pluck().all() as number[];
    const times = db.prepare(`SELECT created_at FROM messages WHERE user_id = 'anna' ORDER BY created_at`).pluck().all() as string[];
    const queries = [...QUERIES, ftsQuery([sentence()])!, ftsQuery([sentence(), sentence()])!];
    for (const match of queries) {
      for (const w of [0.5, 0.3, 1, 2.5]) {
        const mine = ranked(index, "anna", match, w);
        expect(mine, `${what}: ${match}`).toBeDefined();
        const want = fts5Ranked(db, "anna", match, w).filter(([id]) => !hidden.has(id));
        expectSame(mine!, want, `${what}: ${match} @${w}`);
      }
      const narrow = { from: times[Math.floor(times.length * 0.4)]!, to: times[Math.floor(times.length * 0.45)]! };
      const wide = { from: times[5]!, to: times.at(-5)! };
      for (const f of [
        {},
        { excludeConversationId: pick(convs) },
        narrow,
        { ...wide, excludeConversationId: pick(convs) },
        { from: narrow.from },
        { to: narrow.to },
      ] as Partial<CandidateFilter>[]) {
        const filter: CandidateFilter = { userId: "anna", match, contextWeight: 0.5, ...f };
        // Bounds take the joined FTS5 query: the reference for every path.
        const want = [...fts().candidates({ from: "0000", to: "9999", ...filter })];
        expectSame([...table.candidates(filter)], want, `${what}: ${match} ${JSON.stringify(f)}`);
        const first = [] as CandidateRow[];
        for (const r of table.candidates(filter)) if (first.push(r) >= 3) break;
        expectSame(first, want.slice(0, 3), `${what}: first 3 of ${match}`);
      }
    }
    expect(spy.answered - before).toBe(queries.length * 12); // the index answered every search, FTS5 was not asked instead
  }

  it("ranks as FTS5 after the build", () => compareAll("built"));

  it("stays equal through inserts, edits, forgetting and deletes (the change log)", () => {
    for (let pass = 0; pass < 2; pass++) {
      importMessages(db, log, messages("anna", 40), 60);
      const ids = db.prepare(`SELECT id FROM messages WHERE user_id = 'anna' ORDER BY random() LIMIT 30`).pluck().all() as number[];
      const edit = db.prepare(`UPDATE messages SET text = ? WHERE id = ?`);
      for (const id of ids.slice(0, 10)) edit.run(sentence(), id);
      const forget = db.prepare(`UPDATE messages SET text = '(forgotten)', redacted_at = '2026-01-01T00:00:00Z' WHERE id = ?`);
      for (const id of ids.slice(10, 15)) forget.run(id);
      const del = db.prepare(`DELETE FROM messages WHERE id = ?`);
      for (const id of ids.slice(15, 20)) del.run(id);
      // Only the filters' columns: forgotten without a new text, moved in time, into another conversation.
      db.prepare(`UPDATE messages SET redacted_at = '2026-02-01T00:00:00Z' WHERE id = ?`).run(ids[20]);
      db.prepare(`UPDATE messages SET created_at = '2030-01-01T00:00:00Z' WHERE id = ?`).run(ids[21]);
      db.prepare(`UPDATE messages SET conversation_id = (SELECT conversation_id FROM messages WHERE id = ?) WHERE id = ?`).run(ids[23], ids[22]);
      compareAll(`pass ${pass}`);
    }
  });

  it("sees a write of another connection (another process) at the next search", () => {
    const other = openDatabase(join(dir, "lilo.db"));
    try {
      importMessages(other, new ChatLog(other), [{ userId: "anna", role: "user", text: "Zauberwürfel Kino", createdAt: "2027-01-01T10:00:00Z" }], 60);
      other.prepare(`UPDATE messages SET text = 'Zauberwürfel gelöst' WHERE id = (SELECT min(id) FROM messages WHERE user_id = 'anna')`).run();
    } finally {
      other.close();
    }
    const hits = ranked(index, "anna", '"zauberwurfel"*', 0.5)!.map(([id]) => id);
    const [added, edited] = db.prepare(`SELECT max(id), min(id) FROM messages WHERE user_id = 'anna'`).raw().get() as [number, number];
    expect(hits).toEqual(expect.arrayContaining([added, edited])); // a stale index would find neither
    compareAll("after another connection wrote");
  });

  it("rebuilds when far behind (a large import), answering by FTS5 meanwhile", async () => {
    importMessages(db, log, messages("anna", 200), 60); // more changes than patchMax (150)
    expect(ranked(index, "anna", '"kino"*', 0.5)).toBeUndefined();
    await index.whenReady("anna");
    compareAll("after a rebuild");
  });

  it("ranks the same after a restart (a new process on the same file)", async () => {
    db.close();
    db = openDatabase(join(dir, "lilo.db"));
    index.close();
    index = new ChatKeywordIndex(new ChatKeywordRows(db), { maxBytes: 64 * 1024 * 1024 });
    spy = new Spy(index);
    await index.whenReady("anna");
    compareAll("restarted");
  });
});

describe("chat-log keyword index: users apart, memory bound", () => {
  /** Three users' logs in one database and an index bounded to 1 byte, each user's partition built in turn before `check` runs. */
  async function threeUsers(check: (db: Db, index: ChatKeywordIndex, user: string) => void): Promise<void> {
    const dir = mkdtempSync(join(tmpdir(), "lilo-kwusers-"));
    const db = openDatabase(join(dir, "lilo.db"));
    try {
      const log = new ChatLog(db);
      for (const u of ["anna", "ben", "cleo"]) importMessages(db, log, messages(u, 300), 60);
      const index = new ChatKeywordIndex(new ChatKeywordRows(db), { maxBytes: 1 });
      for (const u of ["anna", "ben", "cleo"]) {
        await index.whenReady(u);
        check(db, index, u);
      }
      index.close();
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it("ranks only the searching user's rows, those FTS5 finds in the user's range", () =>
    threeUsers((db, index, u) => {
      const own = new Set(db.prepare(`SELECT id FROM messages WHERE user_id = ?`).pluck().all(u) as number[]);
      for (const match of QUERIES) {
        const got = ranked(index, u, match, 0.5)!.map(([id]) => id);
        expect(got.every((id) => own.has(id))).toBe(true);
        // Scores differ: N, n and lengths are the user's own.
        expect(new Set(got)).toEqual(new Set(fts5Ranked(db, u, match, 0.5).map(([id]) => id)));
      }
    }));

  it("keeps only the partition searched now within a bound of one byte", () =>
    threeUsers((_db, index, u) => {
      ranked(index, u, QUERIES[0]!, 0.5);
      expect(index.stats().parts).toBe(1);
    }));
});
