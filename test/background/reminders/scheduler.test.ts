import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixedClock } from "../../../core/index.ts";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";
import { recordingTransport } from "../../helpers/seed-chat.ts";
import { readDb } from "../../helpers/read-db.ts";

const MIN = 60_000;
const HOUR = 60 * MIN;
const at = { transport: "fake", chatId: "7", source: "command" as const };

/** Reminders rung by the scheduler through the push outbox, with a fixed clock in Berlin (Friday 5 December 2025, 11:00). */
describe("reminders: rung once, on time, through the outbox", () => {
  const clock = fixedClock("2025-12-05T10:00:00Z");
  let t: TestLilo;
  let transport: ReturnType<typeof recordingTransport>;
  const texts = () => transport.sent.map((s) => s.message.text);
  const proactive = () =>
    readDb(t.lilo).all(`SELECT id, text FROM messages WHERE user_id = 'chris' AND proactive = 1 ORDER BY id`) as { id: number; text: string }[];

  beforeEach(() => {
    clock.set("2025-12-05T10:00:00Z");
    t = makeTestLilo({ LILO_TIMEZONE: "Europe/Berlin", LILO_LANGUAGE: "de", LILO_QUIET_HOURS: "00:00-23:59" }, { clock });
    transport = recordingTransport();
    t.lilo.push.registerTransport(transport);
  });
  afterEach(() => t.cleanup());

  it("a due reminder goes once to the chat it was set in, in quiet hours and without /push on, and is stored as her message", async () => {
    const set = t.lilo.reminders.set({ userId: "chris", words: "in 20 Minuten Tee aufsetzen", ...at });
    expect(set).toMatchObject({ ok: true, text: "⏰ Ich erinnere dich heute, Fr 5.12., um 11:20 an: Tee aufsetzen" });
    await t.lilo.reminders.runDue();
    expect(texts()).toEqual([]);
    clock.advance(20 * MIN);
    await t.lilo.reminders.runDue();
    await t.lilo.reminders.runDue();
    expect(transport.sent).toEqual([
      {
        target: { transport: "fake", chatId: "7" },
        message: { kind: "reminder", text: "⏰ Du wolltest erinnert werden: Tee aufsetzen", reminderId: set.ok ? set.reminder.id : 0 },
      },
    ]);
    expect(proactive().map((m) => m.text)).toEqual(["⏰ Du wolltest erinnert werden: Tee aufsetzen"]);
    const row = t.lilo.reminders.get(set.ok ? set.reminder.id : 0)!;
    expect(row).toMatchObject({ state: "delivered", deliveredCount: 1, lastMessageId: proactive()[0]!.id });
    expect(t.lilo.reminders.list("chris")).toEqual([]);
  });

  it("a reminder due while Lilo was down rings once on start, saying it is late", async () => {
    t.lilo.reminders.set({ userId: "chris", words: "morgen um 9 Tabletten", ...at });
    clock.set("2025-12-06T10:30:00Z"); // 11:30, due was 09:00
    await t.lilo.reminders.runDue();
    await t.lilo.reminders.runDue();
    expect(texts()).toEqual(["⏰ Du wolltest erinnert werden (verspätet, fällig war 09:00): Tabletten"]);
  });

  it("past the late limit a one-shot reminder is listed as missed, not sent", async () => {
    t.lilo.reminders.set({ userId: "chris", words: "morgen um 9 Tabletten", ...at });
    clock.set("2025-12-06T22:00:00Z"); // 14 h late
    await t.lilo.reminders.runDue();
    expect(texts()).toEqual([]);
    expect(t.lilo.reminders.missed("chris").map((r) => r.text)).toEqual(["Tabletten"]);
  });

  it("a recurring reminder after days of downtime catches up once, then keeps its rule", async () => {
    const set = t.lilo.reminders.set({ userId: "chris", words: "jeden Tag um 12:00 Wasser trinken", ...at });
    expect(set.ok && set.reminder.dueAt).toBe("2025-12-05T11:00:00.000Z");
    clock.set("2025-12-09T11:30:00Z"); // four days later, 12:30
    await t.lilo.reminders.runDue();
    expect(texts()).toEqual(["⏰ Du wolltest erinnert werden (verspätet, fällig war 12:00): Wasser trinken"]);
    expect(t.lilo.reminders.list("chris")[0]!.dueAt).toBe("2025-12-10T11:00:00.000Z");
    clock.set("2025-12-10T11:00:00Z");
    await t.lilo.reminders.runDue();
    expect(texts()).toHaveLength(2);
  });

  it("bad input is refused with a sentence and stores nothing", () => {
    const tries = [
      ["gestern Tee", "past"],
      ["vor einer Stunde Tee", "past"],
      ["am 31.2. um 9 Miete", "impossible-date"],
      ["am 3.5.9999 um 10 Tee", "too-far"],
      ["morgen um 9", "empty"],
      [`morgen um 9 ${"x".repeat(10_240)}`, "too-long"],
    ] as const;
    for (const [words, reason] of tries) expect(t.lilo.reminders.set({ userId: "chris", words, ...at })).toMatchObject({ ok: false, reason });
    expect(t.lilo.reminders.set({ userId: "chris", words: "morgen um 9 Tee", ...at, group: true })).toMatchObject({ ok: false, reason: "group" });
    expect(readDb(t.lilo).get(`SELECT COUNT(*) AS n FROM reminders`)).toEqual({ n: 0 });
  });

  it("more than the stated number of waiting reminders is refused", () => {
    const small = makeTestLilo({ LILO_TIMEZONE: "Europe/Berlin", LILO_REMINDER_MAX_PENDING: "2" }, { clock });
    try {
      expect(small.lilo.reminders.set({ userId: "chris", words: "morgen um 9 Tee", ...at }).ok).toBe(true);
      expect(small.lilo.reminders.set({ userId: "chris", words: "morgen um 10 Brot", ...at }).ok).toBe(true);
      expect(small.lilo.reminders.set({ userId: "chris", words: "morgen um 11 Milch", ...at })).toMatchObject({ ok: false, reason: "too-many" });
      expect(small.lilo.reminders.set({ userId: "anna", words: "morgen um 11 Milch", ...at }).ok).toBe(true);
    } finally {
      void small.cleanup();
    }
  });

  it("someone else's reminder id is not found: done, snooze and delete change nothing", () => {
    const set = t.lilo.reminders.set({ userId: "chris", words: "morgen um 9 Tee", ...at });
    const id = set.ok ? set.reminder.id : 0;
    expect(t.lilo.reminders.done("anna", id)).toMatchObject({ ok: false, reason: "not-found" });
    expect(t.lilo.reminders.snooze("anna", id, "1h")).toMatchObject({ ok: false, reason: "not-found" });
    expect(t.lilo.reminders.cancel("anna", id)).toMatchObject({ ok: false, reason: "not-found" });
    expect(t.lilo.reminders.list("chris").map((r) => r.id)).toEqual([id]);
  });

  it("snooze moves a rung reminder and rings it again; done closes it", async () => {
    const set = t.lilo.reminders.set({ userId: "chris", words: "in 1 Minute Tee", ...at });
    const id = set.ok ? set.reminder.id : 0;
    clock.advance(MIN);
    await t.lilo.reminders.runDue();
    expect(t.lilo.reminders.snooze("chris", id, "10m")).toMatchObject({ ok: true, text: "💤 Verschoben auf Fr 5.12., 11:11." });
    clock.advance(10 * MIN);
    await t.lilo.reminders.runDue();
    expect(texts()).toEqual(["⏰ Du wolltest erinnert werden: Tee", "⏰ Du wolltest erinnert werden: Tee"]);
    expect(t.lilo.reminders.done("chris", id)).toMatchObject({ ok: true });
    expect(t.lilo.reminders.get(id)!.state).toBe("done");
    clock.advance(HOUR);
  });
});
