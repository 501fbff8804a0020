/**
 * `lilo memory list` takes every store `lilo why` and /why name a memory of
 * (the profile too), and `lilo memory search` prints the keyword score it
 * computed, never a rounded "0.00" for a word that matched.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLilo, fixedClock, type Lilo } from "../../core/index.ts";
import { openLiloDatabase, type Db } from "../../core/foundation/store/db.ts";
import { atTime } from "../helpers/clock-at.ts";
import { makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { runCli } from "../helpers/cli.ts";

describe("lilo memory list and search: the stores and scores they show", () => {
  const clock = fixedClock("2026-03-10T12:00:00Z");
  let t: TestLilo;
  let db: Db;
  const open = (): Lilo => createLilo(t.lilo.config, { embedder: t.embedder, db, clock });

  beforeEach(() => {
    t = makeTestLilo({ LILO_TIMEZONE: "Europe/Berlin" }, { clock });
    db = openLiloDatabase(t.lilo.config);
  });
  afterEach(async () => {
    db.close();
    await t.cleanup();
  });

  it("lists the profile newest first with --store profile, and names every listable store on a wrong one", async () => {
    const older = atTime(clock, "2026-03-01T09:00:00Z", () => t.lilo.profile.add("owner", "work", "Christian ist Lehrer"));
    const newer = t.lilo.profile.add("owner", "other", "Christian hat einen Kater");
    const list = await runCli(open, ["memory", "list", "--store", "profile"]);
    expect(list).toMatchObject({ code: 0, err: "" });
    expect(list.out.split("\n")).toEqual([
      `#${newer.id}  2026-03-10 13:00  other: Christian hat einen Kater`,
      `#${older.id}  2026-03-01 10:00  work: Christian ist Lehrer`,
    ]);
    const json = JSON.parse((await runCli(open, ["memory", "list", "--store", "profile", "--json", "-n", "1"])).out) as unknown[];
    expect(json).toEqual([{ id: newer.id, text: "Christian hat einen Kater", createdAt: "2026-03-10T12:00:00.000Z", category: "other" }]);

    const wrong = await runCli(open, ["memory", "list", "--store", "profil"]);
    expect(wrong.code).toBe(1);
    expect(wrong.err).toBe('error: unknown store "profil" (use notes, important, thoughts, diary, profile)');
    const search = await runCli(open, ["memory", "search", "Lehrer", "--store", "profile"]);
    expect(search.code).toBe(1);
    expect(search.err).toContain("the profile has its own command here: lilo profile list");
  });

  it("search prints the bm25 score of a word match as computed, not a rounded 0.00", async () => {
    await t.lilo.memory.add({ userId: "owner", text: "Christian segelt am Wannsee" });
    const r = await runCli(open, ["memory", "search", "Wannsee"]);
    expect(r.code).toBe(0);
    const [line] = r.out.split("\n");
    expect(line).toMatch(/^#\d+ {2}cos -?\d\.\d{3} {2}bm25 \S+ {2}2026-03-10 13:00 {2}Christian segelt am Wannsee$/);
    const shown = /bm25 (\S+)/.exec(line!)![1]!;
    const [hit] = JSON.parse((await runCli(open, ["memory", "search", "Wannsee", "--json"])).out) as { keyword: number }[];
    expect(hit!.keyword).toBeGreaterThan(0);
    expect(shown).not.toBe("0.00");
    expect(Number(shown)).toBeCloseTo(hit!.keyword, 6);
  });
});
