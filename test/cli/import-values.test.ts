/**
 * `lilo import` keeps to the stores' value rules (core/foundation/store/values.ts):
 * a line no store would write is refused with its line number and the rule,
 * and then nothing of the file is written. A UTF-8 byte-order mark is no
 * reason to refuse a file.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createLilo, type Lilo } from "../../core/index.ts";
import { openLiloDatabase, type Db } from "../../core/foundation/store/db.ts";
import { makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { runCli } from "../helpers/cli.ts";

const STORES = ["notes", "important", "thoughts", "diary", "profile", "rules", "topics"];
const CATEGORIES = "person, work, projects, preferences, relationships, health, other";

describe("lilo import: the stores' value rules", () => {
  let t: TestLilo;
  let db: Db;
  const open = (): Lilo => createLilo(t.lilo.config, { embedder: t.embedder, db, clock: t.lilo.clock });
  const counts = () => STORES.map((s) => (db.prepare(`SELECT count(*) AS n FROM ${s}`).get() as { n: number }).n);
  const file = (name: string, text: string) => {
    const path = join(t.dir, name);
    writeFileSync(path, text);
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

  it("refuses a file with any bad value (category, weight, day, origin, kind) whole, naming each line with its rule", async () => {
    const lines = [
      { store: "notes", text: "Christian trinkt Tee" },
      { store: "profile", category: "bogus", text: "Christian ist Lehrer" },
      { store: "important", text: "Christians Mutter heißt Erika", weight: 7 },
      { store: "important", text: "Christians Vater heißt Bernd", weight: -5 },
      { store: "diary", text: "Ein ruhiger Tag.", day: "gestern" },
      { store: "diary", text: "Ein stiller Tag.", day: "2026-02-30" },
      { store: "thoughts", text: "Er wirkt müde.", origin: "dream" },
      { store: "topics", text: "Wie war der Film?", kind: "reminder" },
      { store: "profile", category: "Work", text: "Christian arbeitet in Köln" },
    ];
    const path = file("bad.jsonl", lines.map((l) => JSON.stringify(l)).join("\n"));
    for (const args of [
      ["import", path],
      ["import", path, "--apply"],
    ]) {
      const r = await runCli(open, args);
      expect(r.code).toBe(1);
      expect(r.err.split("\n")).toEqual([
        `line 2: profile category must be one of ${CATEGORIES}`,
        "line 3: important weight must be a whole number from 1 to 3",
        "line 4: important weight must be a whole number from 1 to 3",
        "line 5: diary day must be a date YYYY-MM-DD",
        "line 6: diary day must be a real date YYYY-MM-DD",
        "line 7: thought origin must be one of chat, reflection",
        "line 8: topic kind must be one of followup, concern",
      ]);
      expect(r.out).toContain("7 invalid lines: nothing");
      expect(r.out).toMatch(/profile\s+1\s+0\s+1/);
      expect(r.out).toMatch(/important\s+0\s+0\s+2/);
    }
    expect(counts()).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });

  it("imports the good lines alone, a category in any case stored as the stores keep it", async () => {
    const lines = [
      { store: "notes", text: "Christian trinkt Tee" },
      { store: "profile", category: "Work", text: "Christian arbeitet in Köln" },
    ];
    const good = file("good.jsonl", lines.map((l) => JSON.stringify(l)).join("\n"));
    const ok = await runCli(open, ["import", good, "--apply"]);
    expect(ok.err).toBe("");
    expect(ok.code).toBe(0);
    expect(db.prepare("SELECT category, text FROM profile").all()).toEqual([{ category: "work", text: "Christian arbeitet in Köln" }]);
  });

  it("the store writers refuse the same values: lilo profile add with a bogus category writes nothing", async () => {
    const r = await runCli(open, ["profile", "add", "bogus", "Christian ist Lehrer"]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`profile category must be one of ${CATEGORIES}`);
    expect(counts()[4]).toBe(0);
    const ok = await runCli(open, ["profile", "add", "work", "Christian ist Lehrer"]);
    expect(ok.code).toBe(0);
    expect(counts()[4]).toBe(1);
  });

  it("accepts a file that starts with a UTF-8 byte-order mark", async () => {
    const lines = [
      { store: "profile", category: "person", text: "Christian ist 41" },
      { store: "notes", text: "Christian trinkt Tee" },
      { store: "diary", text: "Ein ruhiger Tag.", day: "2025-03-05" },
    ];
    const path = join(t.dir, "bom.jsonl");
    writeFileSync(path, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lines.map((l) => JSON.stringify(l)).join("\r\n") + "\r\n", "utf8")]));
    const r = await runCli(open, ["import", path, "--apply"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain("imported 3, skipped 0 duplicates");
    expect(db.prepare("SELECT category, text FROM profile").all()).toEqual([{ category: "person", text: "Christian ist 41" }]);
    expect(db.prepare("SELECT day FROM diary").all()).toEqual([{ day: "2025-03-05" }]);
  });
});
