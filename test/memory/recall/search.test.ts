import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ChatSearch, ftsQuery, type RecallQuery } from "../../../core/memory/recall/search.ts";
import { parseTimeWords } from "../../../core/memory/recall/time-words.ts";
import { isRecallRequest } from "../../../core/memory/recall/recall-talk.ts";
import { fixedClock } from "../../../core/foundation/ports/clock.ts";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";
import { seedConversation } from "../../helpers/seed-conversation.ts";
import { openLiloDatabase, type Db } from "../../../core/foundation/store/db.ts";

const TZ = "Europe/Berlin";
const clock = fixedClock("2026-12-02T18:00:00Z"); // Wednesday 19:00 in Berlin

describe("ChatSearch (FTS5 recall over the chat log)", () => {
  let t: TestLilo;
  let search: ChatSearch;
  /** The search runs on its own connection to Lilo's file. */
  let sql: Db;
  const find = (terms: string[], extra: Partial<RecallQuery> = {}) => search.search({ userId: "chris", terms, filter: {}, limit: 8, ...extra });
  const hits = (terms: string[], extra: Partial<RecallQuery> = {}) => find(terms, extra).map((p) => p.hit.text);

  beforeEach(() => {
    t = makeTestLilo({}, { clock });
    sql = openLiloDatabase(t.lilo.config);
    search = new ChatSearch(sql, TZ);
  });
  afterEach(async () => {
    sql.close();
    await t.cleanup();
  });

  const cinema = () =>
    seedConversation(t.lilo, "chris", [
      ["user", "Der Kinoabend mit Anna war toll.", "2026-11-20T19:00:00Z"],
      ["assistant", "Das freut mich!", "2026-11-20T19:01:00Z"],
      ["user", "Danach waren wir im Café am Markt.", "2026-11-20T19:05:00Z"],
    ]);

  it("finds words by prefix ('Kino' → 'Kinoabend')", () => {
    cinema();
    expect(hits(["Kino"])).toEqual(["Der Kinoabend mit Anna war toll."]);
  });

  it("ignores case and diacritics", () => {
    cinema();
    expect(hits(["KINO"])).toEqual(["Der Kinoabend mit Anna war toll."]);
    expect(hits(["cafe"])).toEqual(["Danach waren wir im Café am Markt."]);
  });

  it("finds words literally, not by meaning", () => {
    cinema();
    expect(hits(["Streifen"])).toEqual([]); // "Streifen" never finds "Film"
  });

  it("ranks messages with more of the words first (bm25, words joined with OR)", () => {
    seedConversation(t.lilo, "chris", [["user", "Ich mag Pizza.", "2026-11-20T10:00:00Z"]]);
    seedConversation(t.lilo, "chris", [["user", "Pizza und Kino am Samstag, das war schön.", "2026-11-21T10:00:00Z"]]);
    expect(hits(["Kino", "Pizza"])).toEqual(["Pizza und Kino am Samstag, das war schön.", "Ich mag Pizza."]);
  });

  it("never lets FTS syntax in the words break the query", () => {
    seedConversation(t.lilo, "chris", [["user", "Wir waren im Kino AND danach essen.", "2026-11-20T10:00:00Z"]]);
    const weird = ['"', "*", "AND", "OR", "NOT", "NEAR(", 'Ki"no', "Kino*", "^Kino", "col:Kino", "(", ")", "-", "+", "{a b}", "''", "\\"];
    for (const w of weird) expect(() => find([w]), w).not.toThrow();
    expect(() => find(weird)).not.toThrow();
    expect(hits(['"Kino"', "NEAR("])).toEqual(["Wir waren im Kino AND danach essen."]);
    expect(ftsQuery(['Kino"abend', "TV"])).toBe('"kino"* OR "abend"* OR "tv"'); // folded; two letters: exact, no prefix
    expect(ftsQuery(['"', "*", "("])).toBeUndefined();
    expect(find(['"', "*"])).toEqual([]); // nothing searchable and no time: nothing
  });

  it("searches one user's log only", () => {
    seedConversation(t.lilo, "anna", [["user", "Annas Kinoabend", "2026-11-20T10:00:00Z"]]);
    seedConversation(t.lilo, "chris", [["user", "Christians Kinoabend", "2026-11-20T11:00:00Z"]]);
    expect(hits(["Kinoabend"])).toEqual(["Christians Kinoabend"]);
  });

  it("never returns the conversation running now", () => {
    seedConversation(t.lilo, "chris", [["user", "Kino damals", "2026-11-20T10:00:00Z"]]);
    const now = seedConversation(t.lilo, "chris", [["user", "Weißt du noch, Kino?", "2026-12-02T17:59:00Z"]]);
    expect(hits(["Kino"], { excludeConversationId: now })).toEqual(["Kino damals"]);
  });

  it("ranks talk about remembering below the originals (the seed's feedback loop)", () => {
    seedConversation(t.lilo, "chris", [
      ["user", "Ich habe Disclosure Day gesehen, großartig.", "2026-11-10T19:00:00Z"],
      ["assistant", "Klingt nach einem guten Abend!", "2026-11-10T19:01:00Z"],
    ]);
    seedConversation(t.lilo, "chris", [
      ["user", "Weißt du noch, was ich über Disclosure Day gesagt habe? Disclosure Day!", "2026-11-20T19:00:00Z"],
      ["assistant", "Du fandest Disclosure Day großartig, Disclosure Day hat dich begeistert.", "2026-11-20T19:01:00Z", true],
    ]);
    seedConversation(t.lilo, "chris", [
      ["user", "Do you remember Disclosure Day? Disclosure Day Disclosure Day", "2026-11-25T19:00:00Z"],
      ["assistant", "Disclosure Day Disclosure Day, yes.", "2026-11-25T19:01:00Z"], // answers a recall request
    ]);
    // bm25 alone prefers the denser talk about remembering ...
    const raw = sql
      .prepare("SELECT m.text FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid WHERE messages_fts MATCH ? ORDER BY rank LIMIT 1")
      .get(ftsQuery(["Disclosure", "Day"])) as { text: string };
    expect(raw.text).not.toBe("Ich habe Disclosure Day gesehen, großartig.");
    // ... the search puts the original first.
    const r = find(["Disclosure", "Day"]);
    expect(r[0]!.hit.text).toBe("Ich habe Disclosure Day gesehen, großartig.");
    expect(r[0]!.aboutRemembering).toBe(false);
    expect(r.slice(1).every((p) => p.aboutRemembering)).toBe(true);
    expect(r.length).toBeGreaterThanOrEqual(2);
  });

  it("applies time words as hard filters on local days and hours", () => {
    const q = (text: string) => {
      const p = parseTimeWords(text, clock, TZ);
      return search.search({ userId: "chris", terms: p.terms, filter: p.filter, limit: 8 }).map((x) => x.hit.text);
    };
    seedConversation(t.lilo, "chris", [["user", "Kino vorgestern abends", "2026-11-30T19:00:00Z"]]); // 20:00 local
    seedConversation(t.lilo, "chris", [["user", "Kino gestern früh", "2026-12-01T08:00:00Z"]]); // 09:00 local
    seedConversation(t.lilo, "chris", [["user", "Kino gestern abends", "2026-12-01T20:00:00Z"]]); // 21:00 local
    seedConversation(t.lilo, "chris", [["user", "Kino gestern kurz vor Mitternacht", "2026-12-01T22:59:00Z"]]); // 23:59 local
    seedConversation(t.lilo, "chris", [["user", "Kino heute nach Mitternacht", "2026-12-01T23:01:00Z"]]); // 00:01 local, today
    expect(q("Kino gestern")).toEqual(expect.arrayContaining(["Kino gestern früh", "Kino gestern abends", "Kino gestern kurz vor Mitternacht"]));
    expect(q("Kino gestern")).toHaveLength(3);
    expect(q("Kino gestern abends").sort()).toEqual(["Kino gestern abends", "Kino gestern kurz vor Mitternacht"]);
    expect(q("Kino morgens").sort()).toEqual(["Kino gestern früh", "Kino heute nach Mitternacht"]);
    expect(q("Kino abends")).toHaveLength(3); // a day part alone applies to every day
    expect(q("Kino heute")).toEqual(["Kino heute nach Mitternacht"]);
    // Time words alone: every message of that time, oldest first.
    expect(q("gestern abends")).toEqual(["Kino gestern abends", "Kino gestern kurz vor Mitternacht"]);
  });

  it("returns the message before and after the hit, with local times", () => {
    seedConversation(t.lilo, "chris", [
      ["user", "Was machen wir heute?", "2026-11-20T17:58:00Z"],
      ["assistant", "Wie wäre es mit Kino?", "2026-11-20T17:59:00Z"],
      ["user", "Kino klingt gut, der neue Film.", "2026-11-20T18:00:00Z"],
      ["assistant", "Dann los!", "2026-11-20T18:01:00Z"],
    ]);
    const r = find(["Film"]);
    expect(r).toHaveLength(1);
    expect(r[0]).toMatchObject({
      before: { role: "assistant", text: "Wie wäre es mit Kino?", localTime: "2026-11-20 18:59" },
      hit: { role: "user", text: "Kino klingt gut, der neue Film.", localTime: "2026-11-20 19:00" },
      after: { role: "assistant", text: "Dann los!" },
    });
  });

  it("shows no passage that overlaps another", () => {
    seedConversation(t.lilo, "chris", [
      ["user", "Was machen wir heute?", "2026-11-20T17:58:00Z"],
      ["assistant", "Wie wäre es mit Kino?", "2026-11-20T17:59:00Z"],
      ["user", "Kino klingt gut, der neue Film.", "2026-11-20T18:00:00Z"],
    ]);
    // "Kino" hits two neighbours: the second is already on the sheet as context of the first.
    expect(find(["Kino"])).toHaveLength(1);
  });

  it("returns at most the passages asked for", () => {
    for (let i = 0; i < 5; i++) seedConversation(t.lilo, "chris", [["user", `Pizza Nummer ${i}`, `2026-11-2${i}T10:00:00Z`]]);
    expect(find(["Pizza"], { limit: 2 })).toHaveLength(2);
  });
});

describe("isRecallRequest", () => {
  it.each([
    "Weißt du noch, wie ich den Film fand?",
    "weisst du eigentlich noch was von gestern",
    "Erinnerst du dich an das Kino?",
    "Kannst du dich daran erinnern?",
    "Was habe ich dir über Disclosure Day erzählt?",
    "Wie fand ich eigentlich den Film?",
    "Worüber haben wir gestern gesprochen?",
    "Do you remember the film?",
    "Can you recall what I said?",
    "What did I say about the trip?",
  ])("recognises %j", (text) => expect(isRecallRequest(text)).toBe(true));

  it.each(["Ich war im Kino.", "Noch ein Film?", "I remember nothing about it", "Was machst du heute?"])("leaves %j alone", (text) =>
    expect(isRecallRequest(text)).toBe(false),
  );
});
