import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createLilo, fixedClock, type Lilo } from "../../core/index.ts";
import { openLiloDatabase, type Db } from "../../core/foundation/store/db.ts";
import { makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { runCli } from "../helpers/cli.ts";

const CONFIG = { LILO_TIMEZONE: "Europe/Berlin", LILO_LANGUAGE: "de", LILO_TERMINAL_USER: "chris" } as const;

/** The fields a reminder keeps across export and import (ids and chat-log references belong to one database). */
const kept = (line: Record<string, unknown>) => {
  const { id: _id, sourceMessageId: _s, lastMessageId: _l, updatedAt: _u, ...rest } = line;
  return rest;
};

describe("lilo export and import carry reminders", () => {
  const clock = fixedClock("2025-12-05T10:00:00Z");
  let from: TestLilo;
  let to: TestLilo;
  let dbs: Db[];
  const opener = (t: TestLilo, db: Db) => (): Lilo => createLilo(t.lilo.config, { embedder: t.embedder, db, clock });

  beforeEach(() => {
    from = makeTestLilo(CONFIG, { clock });
    to = makeTestLilo(CONFIG, { clock });
    dbs = [openLiloDatabase(from.lilo.config), openLiloDatabase(to.lilo.config)];
  });
  afterEach(async () => {
    for (const db of dbs) db.close();
    await from.cleanup();
    await to.cleanup();
  });

  it("round-trips one-shot, recurring and closed reminders field for field, and a second import adds nothing", async () => {
    const set = (words: string) => from.lilo.reminders.set({ userId: "chris", words, transport: "telegram", chatId: "111", source: "command" });
    set("morgen um 9 Tabletten");
    set("jeden Montag um 8 Mülltonnen raus");
    const gone = set("übermorgen 18:30 Klempner anrufen");
    if (!gone.ok) throw new Error(gone.text);
    from.lilo.reminders.cancel("chris", gone.reminder.id);

    const file = join(from.dir, "out.jsonl");
    const out = await runCli(opener(from, dbs[0]!), ["export", "--store", "reminders", "--out", file]);
    expect(out.out).toContain("reminders 3");

    const openTo = opener(to, dbs[1]!);
    const applied = await runCli(openTo, ["import", file, "--apply"]);
    expect(applied.code).toBe(0);
    expect(applied.out).toContain("imported 3");

    const before = (await runCli(opener(from, dbs[0]!), ["export", "--store", "reminders", "--plain"])).out.split("\n").map((l) => kept(JSON.parse(l)));
    const after = (await runCli(openTo, ["export", "--store", "reminders", "--plain"])).out.split("\n").map((l) => kept(JSON.parse(l)));
    expect(after).toEqual(before);
    expect(to.lilo.reminders.list("chris").map((r) => to.lilo.reminders.line(r))).toEqual([
      "Sa 6.12., 09:00 – Tabletten",
      "Mo 8.12., 08:00 (jeden Mo um 08:00) – Mülltonnen raus",
    ]);

    const again = await runCli(openTo, ["import", file, "--apply"]);
    expect(again.out).toMatch(/^reminders\s+0\s+3\s+0$/m);
  });

  it("refuses a reminder line with an unknown time zone or rule and imports nothing", async () => {
    const file = join(to.dir, "bad.jsonl");
    const line = { store: "reminders", text: "Tee", userId: "chris", dueAt: "2025-12-06T08:00:00.000Z", transport: "telegram", chatId: "111" };
    writeFileSync(
      file,
      [
        { ...line, timeZone: "Mars/Olympus" },
        { ...line, timeZone: "Europe/Berlin", recurrence: '{"every":"fortnight"}' },
      ]
        .map((l) => JSON.stringify(l))
        .join("\n"),
    );
    const res = await runCli(opener(to, dbs[1]!), ["import", file, "--apply"]);
    expect(res.code).toBe(1);
    expect(res.err).toContain('timeZone "Mars/Olympus" is not a time zone');
    expect(res.err).toContain("recurrence is not a rule Lilo knows");
    expect(to.lilo.reminders.list("chris")).toEqual([]);
  });
});
