import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLilo, fixedClock, type Lilo } from "../../core/index.ts";
import { openLiloDatabase, type Db } from "../../core/foundation/store/db.ts";
import { makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { runCli } from "../helpers/cli.ts";

describe("lilo reminders list/add/cancel", () => {
  let t: TestLilo;
  let db: Db;
  const clock = fixedClock("2025-12-05T10:00:00Z");
  const open = (): Lilo => createLilo(t.lilo.config, { embedder: t.embedder, db, clock });

  beforeEach(() => {
    clock.set("2025-12-05T10:00:00Z");
    t = makeTestLilo({ LILO_TIMEZONE: "Europe/Berlin", LILO_LANGUAGE: "de", LILO_TERMINAL_USER: "chris" }, { clock });
    db = openLiloDatabase(t.lilo.config);
  });
  afterEach(async () => {
    db.close();
    await t.cleanup();
  });

  it("adds a reminder from words for a chat, lists it with its local time as JSON, and cancels it", async () => {
    const added = await runCli(open, ["reminders", "add", "--chat", "telegram:111", "--json", "jeden Montag um 8 Mülltonnen raus"]);
    expect(added.code).toBe(0);
    const r = JSON.parse(added.out) as { id: number; dueAt: string; local: string; transport: string; chatId: string };
    expect(r).toMatchObject({
      dueAt: "2025-12-08T07:00:00.000Z",
      local: "Mo 8.12., 08:00 (jeden Mo um 08:00) – Mülltonnen raus",
      transport: "telegram",
      chatId: "111",
    });
    const listed = JSON.parse((await runCli(open, ["reminders", "list", "--json"])).out) as { id: number }[];
    expect(listed.map((x) => x.id)).toEqual([r.id]);
    expect((await runCli(open, ["reminders", "cancel", String(r.id)])).out).toBe(`reminder #${r.id} cancelled`);
    expect((await runCli(open, ["reminders", "list", "--json"])).out).toBe("[]");
    expect((await runCli(open, ["reminders", "cancel", String(r.id)])).code).toBe(1);
  });

  it("refuses a time in the past with the sentence and stores nothing; without a known chat it says which option to pass", async () => {
    const past = await runCli(open, ["reminders", "add", "--chat", "telegram:111", "gestern", "Tee"]);
    expect(past).toMatchObject({ code: 1, err: "error: Dieser Zeitpunkt liegt in der Vergangenheit – ich kann nur an Kommendes erinnern." });
    const noChat = await runCli(open, ["reminders", "add", "morgen", "um", "9", "Tee"]);
    expect(noChat.code).toBe(1);
    expect(noChat.err).toContain("--chat");
    expect((await runCli(open, ["reminders", "list"])).out).toBe("no reminders waiting");
  });
});
