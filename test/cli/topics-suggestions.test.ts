import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLilo, fixedClock, type Lilo } from "../../core/index.ts";
import { openLiloDatabase, type Db } from "../../core/foundation/store/db.ts";
import { makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { runCli } from "../helpers/cli.ts";
import { atTime } from "../helpers/clock-at.ts";

describe("lilo topics edit/done/delete, lilo suggestions, local times", () => {
  let t: TestLilo;
  let db: Db;
  let clock: ReturnType<typeof fixedClock>;
  const open = (): Lilo => createLilo(t.lilo.config, { embedder: t.embedder, db, clock: t.lilo.clock });

  beforeEach(() => {
    clock = fixedClock("2026-07-03T08:00:00Z");
    t = makeTestLilo({ LILO_TIMEZONE: "Europe/Berlin" }, { clock });
    db = openLiloDatabase(t.lilo.config);
  });
  afterEach(async () => {
    db.close();
    await t.cleanup();
  });

  it("changes topics by hand (edit, done, delete), refusing an unknown id or a second done", async () => {
    const topics = t.lilo.topics;
    const [a, b] = atTime(clock, "2026-02-28T09:00:00Z", () => [
      topics.add("owner", "Wie war die Prüfung?", "followup", "2026-03-01T09:00:00Z"),
      topics.add("owner", "Schläft er genug?", "concern", "2026-03-02T09:00:00Z", "queued"),
    ]);

    expect((await runCli(open, ["topics", "edit", String(a), "  Wie lief die Prüfung?  "])).out).toBe(`topic #${a} updated`);
    expect(topics.get(a)?.text).toBe("Wie lief die Prüfung?");
    expect((await runCli(open, ["topics", "edit", String(a), " "])).code).toBe(1);

    // A queued concern can be closed by hand too; it then never reaches the sheet.
    expect((await runCli(open, ["topics", "done", String(b)])).out).toBe(`topic #${b} done`);
    expect(topics.get(b)?.status).toBe("done");
    const again = await runCli(open, ["topics", "done", String(b)]);
    expect(again.code).toBe(1);
    expect(again.err).toContain("already done");

    expect((await runCli(open, ["topics", "delete", String(a)])).out).toBe(`topic #${a} deleted`);
    expect(topics.get(a)).toBeUndefined();
    const missing = await runCli(open, ["topics", "delete", "999"]);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("no topic with id 999");

    const list = JSON.parse((await runCli(open, ["topics", "list", "--all", "--json"])).out) as { id: number; status: string }[];
    expect(list).toEqual([expect.objectContaining({ id: b, status: "done" })]);
  });

  it("lists suggestions in local time, as text or JSON, until they are deleted", async () => {
    const s = t.lilo.suggestions;
    const first = atTime(clock, "2026-07-01T22:30:00Z", () => s.add("owner", "Ich könnte mir Geburtstage besser merken"));
    atTime(clock, "2026-07-02T05:00:00Z", () => s.add("anna", "Kürzere Antworten am Morgen"));

    const text = await runCli(open, ["suggestions"]);
    // 22:30 UTC is 00:30 the next day in Berlin (summer time).
    expect(text.out).toContain(`#${first}  2026-07-02 00:30  owner  Ich könnte mir Geburtstage besser merken`);
    expect(text.out.indexOf("Kürzere")).toBeLessThan(text.out.indexOf("Geburtstage"));

    const json = JSON.parse((await runCli(open, ["suggestions", "list", "--user", "anna", "--json"])).out) as { text: string }[];
    expect(json.map((j) => j.text)).toEqual(["Kürzere Antworten am Morgen"]);

    expect((await runCli(open, ["suggestions", "delete", String(first)])).out).toBe(`suggestion #${first} deleted`);
    expect(s.list("owner")).toEqual([]);
    expect((await runCli(open, ["suggestions", "delete", String(first)])).code).toBe(1);
  });

  it("prints every time in the configured time zone, memories' and rules' alike", async () => {
    await t.lilo.memory.add({ text: "Christian mag Tee", store: "notes", userId: "owner", createdAt: "2026-01-05T23:15:00Z" });
    expect((await runCli(open, ["memory", "list"])).out).toMatch(/#\d+ {2}2026-01-06 00:15 {2}Christian mag Tee/);
    atTime(clock, "2026-01-05T23:15:00Z", () => t.lilo.rules.add("owner", "Keine Emojis"));
    expect((await runCli(open, ["rules", "list"])).out).toContain("2026-01-06 00:15  Keine Emojis");
  });
});
