import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLilo, fixedClock, type Lilo } from "../../core/index.ts";
import { openLiloDatabase, type Db } from "../../core/foundation/store/db.ts";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { seedExchange } from "../helpers/seed-chat.ts";
import { runCli } from "../helpers/cli.ts";

const NIGHT = "2026-12-02T22:45:00Z";

describe("lilo diary / thoughts / topics", () => {
  let fake: FakeAnthropic;
  let t: TestLilo;
  let db: Db;
  const clock = fixedClock(NIGHT);
  // The CLI closes the Lilo it opens; each call gets a fresh one on the same file and embedder.
  const open = (): Lilo => createLilo(t.lilo.config, { embedder: t.embedder, db, clock });

  beforeEach(async () => {
    fake = await startFakeAnthropic();
    fake.replyAlways((body) =>
      body.model === "claude-diary" ? "Ein stiller Abend mit Christian." : "1. Christian denkt laut.\n[ANSPRECHEN: Wie geht es deinem Rücken?]",
    );
    t = makeTestLilo(
      {
        ANTHROPIC_API_KEY: "sk-ant-test",
        ANTHROPIC_BASE_URL: fake.baseURL,
        LILO_CHAT_MODEL: "anthropic:claude-chat",
        LILO_DIARY_MODEL: "anthropic:claude-diary",
        LILO_USER_NAMES: "chris=Christian",
      },
      { clock },
    );
    db = openLiloDatabase(t.lilo.config);
  });
  afterEach(async () => {
    db.close();
    await t.cleanup();
    await fake.close();
  });

  it("takes a diary entry through its life by hand: written now (never for an invented day), listed, shown, deleted", async () => {
    const none = await runCli(open, ["diary", "write", "--user", "chris"]);
    expect(none).toMatchObject({ code: 0, out: "no entry: no conversation in the diary window — Lilo invents no day" });

    seedExchange(t.lilo, "chris", "Hallo Lilo", "Hallo Christian", new Date(Date.parse(NIGHT) - 3_600_000));
    const w = await runCli(open, ["diary", "write", "--user", "chris"]);
    expect(w.code).toBe(0);
    expect(w.out).toMatch(/^wrote diary entry #(\d+) \(2026-12-02\), ping: not-opted-in\n\nEin stiller Abend mit Christian\.$/);
    const id = /#(\d+)/.exec(w.out)![1]!;

    const list = await runCli(open, ["diary", "list", "--user", "chris", "--json"]);
    expect(JSON.parse(list.out)).toEqual([
      { id: Number(id), day: "2026-12-02", text: "Ein stiller Abend mit Christian.", createdAt: "2026-12-02T22:45:00.000Z" },
    ]);
    expect((await runCli(open, ["diary", "show", id])).out).toContain("Ein stiller Abend mit Christian.");

    expect((await runCli(open, ["diary", "delete", id])).out).toBe(`deleted diary entry #${id}`);
    expect((await runCli(open, ["diary", "list", "--user", "chris"])).out).toBe("no diary entries");
    expect(await t.lilo.memory.search("Ein stiller Abend mit Christian.", { userId: "chris", store: "diary" })).toEqual([]);
  });

  it("takes a thought through its life by hand: thought now with its questions and concern, listed, shown, deleted", async () => {
    seedExchange(t.lilo, "chris", "Mir tut der Rücken weh", "Oh je", new Date(Date.parse(NIGHT) - 3_600_000));
    const think = await runCli(open, ["thoughts", "think", "--user", "chris"]);
    expect(think.code).toBe(0);
    expect(think.out).toContain("stored thought #");
    expect(think.out).toContain("** Welche Muster erkennst du in Christian");
    expect(think.out).toContain("Christian denkt laut.");
    expect(think.out).toContain("concern: open");
    const id = /#(\d+)/.exec(think.out)![1]!;

    const list = await runCli(open, ["thoughts", "list", "--user", "chris"]);
    expect(list.out).toMatch(new RegExp(`^#${id}  2026-12-02 23:45  reflection  Christian denkt laut\\.$`));
    expect((await runCli(open, ["thoughts", "show", id])).out).toContain("** Welche Muster erkennst du in Christian");

    const topics = await runCli(open, ["topics", "list", "--user", "chris"]);
    expect(topics.out).toMatch(/open\s+concern\s+due 2026-12-02 23:45\s+🧠 Wie geht es deinem Rücken\?/);

    // A second "think now" right away: the concern is a duplicate; nothing new is queued.
    const again = await runCli(open, ["thoughts", "think", "--user", "chris"]);
    expect(again.out).toContain("no new thought: the thought was too close to one already stored");
    expect(again.out).toContain("concern: duplicate");

    expect((await runCli(open, ["thoughts", "delete", id])).out).toBe(`deleted thought #${id}`);
    expect((await runCli(open, ["thoughts", "list", "--user", "chris"])).out).toBe("no thoughts");
  });

  it("reports a failed model call as an error: a clear message, exit code 1", async () => {
    seedExchange(t.lilo, "chris", "Hallo", "Hallo", new Date(Date.parse(NIGHT) - 3_600_000));
    fake.fail(500);
    const r = await runCli(open, ["diary", "write", "--user", "chris"]);
    expect(r.code).toBe(1);
    expect(r.err).toContain("error: the diary call failed");
  });
});
