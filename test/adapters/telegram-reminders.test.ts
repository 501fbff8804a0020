import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixedClock } from "../../core/index.ts";
import { ANNA, CHRIS, messagesIn, startTelegramHarness, waitForMessages, type TelegramHarness } from "./telegram-harness.ts";
import { readDb } from "../helpers/read-db.ts";

type Keyboard = { inline_keyboard: { text: string; callback_data: string }[][] };

/** /remind, /reminders and the reminder buttons through real grammY against the fake Bot API, with a fixed clock in Berlin. */
describe("telegram: reminders", () => {
  const clock = fixedClock("2025-12-05T10:00:00Z"); // Friday, 11:00 in Berlin
  let h: TelegramHarness;
  const answered = (id: string) => h.tg.waitFor((calls) => calls.find((c) => c.method === "answerCallbackQuery" && c.params.callback_query_id === id));

  beforeEach(async () => {
    clock.set("2025-12-05T10:00:00Z");
    h = await startTelegramHarness({ env: { LILO_TIMEZONE: "Europe/Berlin", LILO_LANGUAGE: "de" }, ports: { clock } });
  });
  afterEach(() => h.stop());

  it("/remind in 1 Minute Tee aufsetzen is confirmed with the local time and rings once, with buttons, without a model call", async () => {
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "/remind in 1 Minute Tee aufsetzen" });
    const [confirm] = await waitForMessages(h.tg, CHRIS, 1);
    expect(confirm!.params.text).toBe("⏰ Ich erinnere dich heute, Fr 5.12., um 11:01 an: Tee aufsetzen");
    expect((confirm!.params.reply_markup as Keyboard).inline_keyboard[0]!.map((b) => b.text)).toEqual([
      "✅ Erledigt",
      "💤 10 Min",
      "💤 1 Std",
      "💤 Morgen",
      "🗑 Löschen",
    ]);
    clock.advance(60_000);
    await h.lilo.reminders.runDue();
    await h.lilo.reminders.runDue();
    const ring = messagesIn(h.tg, CHRIS).slice(1);
    expect(ring.map((m) => m.params.text)).toEqual(["⏰ Du wolltest erinnert werden: Tee aufsetzen"]);
    const id = h.lilo.reminders.get(1)!.id;
    expect((ring[0]!.params.reply_markup as Keyboard).inline_keyboard[0]![0]!.callback_data).toBe(`r:${id}:d`);
    expect(h.chatRequests()).toEqual([]);
  });

  it("/remind gestern Tee is refused with a sentence and nothing is stored", async () => {
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "/remind gestern Tee" });
    const [refusal] = await waitForMessages(h.tg, CHRIS, 1);
    expect(refusal!.params.text).toBe("Dieser Zeitpunkt liegt in der Vergangenheit – ich kann nur an Kommendes erinnern.");
    expect(readDb(h.lilo).get(`SELECT COUNT(*) AS n FROM reminders`)).toEqual({ n: 0 });
  });

  it("/reminders lists what waits, a weekly one with its next local time; its done button removes it, someone else's press changes nothing", async () => {
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "/remind morgen 9:00 Mama anrufen" });
    await waitForMessages(h.tg, CHRIS, 1);
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "/remind jeden Montag um 8 Mülltonnen raus" });
    const confirmed = await waitForMessages(h.tg, CHRIS, 2);
    expect(confirmed[1]!.params.text).toBe("⏰ Ich erinnere dich jeden Mo um 08:00 an: Mülltonnen raus (zum ersten Mal Mo 8.12., 08:00)");
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "/reminders" });
    const list = (await waitForMessages(h.tg, CHRIS, 3))[2]!;
    expect(list.params.text).toBe("Deine Erinnerungen:\n1. Sa 6.12., 09:00 – Mama anrufen\n2. Mo 8.12., 08:00 (jeden Mo um 08:00) – Mülltonnen raus");
    const rows = (list.params.reply_markup as Keyboard).inline_keyboard;
    expect(rows.map((r) => r[0]!.text)).toEqual(["1. ✅ Erledigt", "2. ✅ Erledigt"]);
    const messageId = (list.result as { message_id: number }).message_id;
    const done = rows[0]![0]!.callback_data;

    const anna = h.tg.pushCallback({ fromId: ANNA, chatId: ANNA, messageId, data: done });
    expect((await answered(anna.id)).params.text).toBe("Diese Erinnerung gibt es nicht (mehr).");
    expect(h.lilo.reminders.list("chris")).toHaveLength(2);

    const chris = h.tg.pushCallback({ fromId: CHRIS, chatId: CHRIS, messageId, data: done });
    expect((await answered(chris.id)).params.text).toBe("✅ Erledigt.");
    expect(h.lilo.reminders.list("chris").map((r) => r.text)).toEqual(["Mülltonnen raus"]);
    const edit = await h.tg.waitFor((calls) => calls.find((c) => c.method === "editMessageReplyMarkup"));
    expect((edit.params.reply_markup as Keyboard).inline_keyboard.map((r) => r[0]!.text)).toEqual(["2. ✅ Erledigt"]);
  });

  it("the snooze button moves a reminder by an hour", async () => {
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "/remind in 20 Minuten Tee" });
    const [confirm] = await waitForMessages(h.tg, CHRIS, 1);
    const messageId = (confirm!.result as { message_id: number }).message_id;
    const snooze = (confirm!.params.reply_markup as Keyboard).inline_keyboard[0]![2]!.callback_data;
    const press = h.tg.pushCallback({ fromId: CHRIS, chatId: CHRIS, messageId, data: snooze });
    expect((await answered(press.id)).params.text).toBe("💤 Verschoben auf Fr 5.12., 12:00.");
    expect(h.lilo.reminders.list("chris")[0]).toMatchObject({ state: "snoozed", dueAt: "2025-12-05T11:00:00.000Z" });
  });

  it("/why on a rung reminder names how it was set: as a reply to it, and as the next message after it", async () => {
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "/remind in 1 Minute Tee aufsetzen" });
    await waitForMessages(h.tg, CHRIS, 1);
    clock.advance(60_000);
    await h.lilo.reminders.runDue();
    const ring = (await waitForMessages(h.tg, CHRIS, 2))[1]!;
    const expected = "🔎 Die Erinnerung „Tee aufsetzen“ hast du am Fr 5.12., 11:00 mit /remind gesetzt.";

    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "/why" });
    expect((await waitForMessages(h.tg, CHRIS, 3))[2]!.params.text).toBe(expected);

    const replyTo = { message_id: (ring.result as { message_id: number }).message_id, date: 0, chat: { id: CHRIS, type: "private" }, ...ring.params };
    const fields = { text: "/why", entities: [{ type: "bot_command", offset: 0, length: 4 }], reply_to_message: replyTo };
    h.tg.pushMedia({ fromId: CHRIS, chatId: CHRIS, fields });
    expect((await waitForMessages(h.tg, CHRIS, 4))[3]!.params.text).toBe(expected);
    h.tg.pushMedia({ fromId: ANNA, chatId: ANNA, fields: { ...fields, reply_to_message: { ...replyTo, chat: { id: ANNA, type: "private" } } } });
    expect(String((await waitForMessages(h.tg, ANNA, 1))[0]!.params.text)).not.toContain("Tee aufsetzen");
  });
});
