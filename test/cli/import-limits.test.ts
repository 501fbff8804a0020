/**
 * `lilo import` keeps to its limits (core/memory/transfer/import-limits.ts):
 * a text no longer than the chat reads whole (LILO_MAX_INPUT_CHARS), times
 * from 1970 to a day after now (a topic's due time up to ten years ahead),
 * and user ids of the shapes Lilo's adapters use. A file that breaks one is
 * refused whole, each line named with its field, and nothing is written.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createLilo, fixedClock, type Lilo } from "../../core/index.ts";
import { openLiloDatabase, type Db } from "../../core/foundation/store/db.ts";
import { makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { runCli } from "../helpers/cli.ts";

const STORES = ["notes", "important", "thoughts", "diary", "profile", "rules", "topics"];
const NOW = "2026-03-10T12:00:00.000Z";
const MAX = 12_000; // LILO_MAX_INPUT_CHARS' default

describe("lilo import: limits of length, time and user id", () => {
  let t: TestLilo;
  let db: Db;
  const open = (): Lilo => createLilo(t.lilo.config, { embedder: t.embedder, db, clock: fixedClock(NOW) });
  const total = () => STORES.reduce((n, s) => n + (db.prepare(`SELECT count(*) AS n FROM ${s}`).get() as { n: number }).n, 0);
  const file = (lines: object[]) => {
    const path = join(t.dir, "import.jsonl");
    writeFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n"));
    return path;
  };

  beforeEach(() => {
    t = makeTestLilo();
    db = openLiloDatabase(t.lilo.config);
  });
  afterEach(async () => {
    db.close();
    await t.cleanup();
  });

  it("refuses a 10 MB note, the years 9999 and 0001 and a 10 KB user id with markup, naming line and field, and imports nothing", async () => {
    const markup = `<script>alert(1)</script>${"x".repeat(10_000)}`;
    const path = file([
      { store: "notes", text: "Christian trinkt Tee" },
      { store: "notes", text: "a".repeat(10 * 1024 * 1024) },
      { store: "notes", text: "Christian spielt Cello", createdAt: "9999-12-31T00:00:00Z" },
      { store: "important", text: "Christians Mutter heißt Erika", createdAt: "0001-01-01" },
      { store: "notes", text: "Christian wohnt in Köln", userId: markup },
      { store: "diary", text: "Ein ruhiger Tag.", day: "9999-01-01" },
      { store: "topics", text: "Wie war der Film?", dueAt: "9999-01-01T00:00:00Z" },
      { store: "thoughts", text: "Er wirkt müde.", questions: "?".repeat(MAX + 1) },
    ]);
    for (const args of [
      ["import", path],
      ["import", path, "--apply"],
    ]) {
      const r = await runCli(open, args);
      expect(r.code).toBe(1);
      expect(r.err.split("\n")).toEqual([
        `line 2: text has ${10 * 1024 * 1024} characters; at most ${MAX} are imported (LILO_MAX_INPUT_CHARS, the chat's limit)`,
        "line 3: createdAt 9999-12-31T00:00:00Z is not between 1970-01-01 and 2026-03-11",
        "line 4: createdAt 0001-01-01 is not between 1970-01-01 and 2026-03-11",
        `line 5: userId "<script>alert(1)</script>xxxxxxxxxxxxxxx…" (${markup.length} characters) is not a user id: use telegram:<digits>, matrix:@name:server (the Matrix id at most 255 characters) or a name of at most 64 letters, digits, ".", "_" and "-"`,
        "line 6: day 9999-01-01 is not between 1970-01-01 and 2026-03-11",
        "line 7: dueAt 9999-01-01T00:00:00Z is not between 1970-01-01 and 2036-03-10",
        `line 8: questions has ${MAX + 1} characters; at most ${MAX} are imported (LILO_MAX_INPUT_CHARS, the chat's limit)`,
      ]);
      expect(r.out).toContain("7 invalid lines: nothing");
      expect(r.err).not.toContain("x".repeat(100)); // the refused value is quoted short, never whole
    }
    expect(total()).toBe(0);
  });

  it("imports what lies just inside every limit: the chat's length, a day ahead, a due time years ahead, each user id shape", async () => {
    const path = file([
      { store: "notes", text: "b".repeat(MAX) },
      { store: "notes", text: "Christian spielt Cello", createdAt: "2026-03-11T11:00:00Z" },
      { store: "notes", text: "Christian wohnt in Köln", createdAt: "1970-01-01" },
      { store: "topics", text: "Wie war die Prüfung?", dueAt: "2030-01-01T00:00:00Z" },
      { store: "notes", text: "Christian trinkt Tee", userId: "telegram:123456789" },
      { store: "notes", text: "Anna trinkt Kaffee", userId: "matrix:@anna.b_1:matrix.example.org:8448" },
      { store: "notes", text: "Anna liest viel", userId: "anna-b" },
    ]);
    const r = await runCli(open, ["import", path, "--apply"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain("imported 7, skipped 0 duplicates");
    expect(db.prepare("SELECT DISTINCT user_id AS u FROM notes ORDER BY u").all()).toEqual([
      { u: "anna-b" },
      { u: "matrix:@anna.b_1:matrix.example.org:8448" },
      { u: "owner" },
      { u: "telegram:123456789" },
    ]);
  });

  it("refuses user ids outside the platforms' grammar: letters after telegram:, a Matrix id over 255 characters or with capitals", async () => {
    const long = `matrix:@${"a".repeat(250)}:example.org`; // the Matrix id alone has 263 characters
    const path = file([
      { store: "notes", text: "eins", userId: "telegram:abc" },
      { store: "notes", text: "zwei", userId: long },
      { store: "notes", text: "drei", userId: "matrix:@Anna:example.org" },
      { store: "notes", text: "vier", userId: "anna maria" },
    ]);
    const r = await runCli(open, ["import", path]);
    expect(r.code).toBe(1);
    expect(r.err.split("\n").map((l) => l.replace(/ userId .*/, ""))).toEqual(["line 1:", "line 2:", "line 3:", "line 4:"]);
    expect(total()).toBe(0);
  });

  it("refuses a --user of no known shape before reading a line", async () => {
    const path = file([{ store: "notes", text: "Christian trinkt Tee" }]);
    const r = await runCli(open, ["import", path, "--apply", "--user", "<b>boss</b>"]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('The user "<b>boss</b>" is not a user id: use telegram:<digits>');
    expect(total()).toBe(0);
  });
});
