import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHRIS, startTelegramHarness, waitForMessages, messagesIn, type TelegramHarness } from "./telegram-harness.ts";

// Issue 19 through the real grammY adapter and the fake Bot API: /why with its three buttons, /forget <words> with yes/no.
/** Waits are generous: the machine may be busy; nothing sleeps, every wait ends on the awaited call. */
const WAIT = 30_000;
type Keyboard = { inline_keyboard: { text: string; callback_data: string }[][] };

describe("Telegram: /why and /forget <words> (issue 19)", () => {
  let h: TelegramHarness;
  beforeAll(async () => {
    h = await startTelegramHarness();
    h.answer = () => "Gern!";
    const add = (text: string, store: "notes" | "important") =>
      h.lilo.memory.add({ text, userId: "chris", store, extra: { provenance: "user", provenance_ref: "7" } });
    await add("Christian trinkt gern Earl Grey", "notes");
    await add("Christian spielt Cello", "notes");
    await add("Christian hat ein Boot namens Seestern", "important");
  });
  afterAll(async () => {
    await h.stop();
  });

  const pressed = (id: string) => h.tg.waitFor((calls) => calls.find((c) => c.method === "answerCallbackQuery" && c.params.callback_query_id === id), WAIT);

  it("/why lists the last answer's memories with stimmt nicht / veraltet / vergessen; each button does what it says", async () => {
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "Was trinke ich gern? Earl Grey?" });
    await waitForMessages(h.tg, CHRIS, 1, WAIT);
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "/why" });
    const [, why] = await waitForMessages(h.tg, CHRIS, 2, WAIT);
    const text = String(why!.params.text);
    expect(text).toContain("Das hatte ich für diese Antwort im Kopf:");
    expect(text).toContain("Earl Grey");
    expect(text).toContain("deine Worte (Nachricht 7)");
    const kb = why!.params.reply_markup as Keyboard;
    const earl = h.lilo.memory.list("chris").find((n) => n.text.includes("Earl Grey"))!;
    const boat = h.lilo.memory.list("chris", { store: "important" })[0]!;
    const cello = h.lilo.memory.list("chris").find((n) => n.text.includes("Cello"))!;
    const row = (ref: string) => kb.inline_keyboard.find((r) => r.some((b) => b.callback_data.endsWith(`:${ref}`)))!;
    expect(row(`N${earl.id}`).map((b) => b.text)).toEqual([`N${earl.id} stimmt nicht`, "veraltet", "vergessen"]);
    const messageId = (why!.result as { message_id: number }).message_id;

    // stimmt nicht: superseded and logged, undoable.
    const wrong = h.tg.pushCallback({ fromId: CHRIS, chatId: CHRIS, messageId, data: `w:x:N${earl.id}` });
    expect((await pressed(wrong.id)).params.text).toMatch(
      /^✏️ Als falsch markiert: „Christian trinkt gern Earl Grey“ \(rückgängig: lilo corrections undo \d+\)$/,
    );
    expect(h.lilo.memory.get("chris", "notes", earl.id)).toBeUndefined();
    const entry = h.lilo.corrections.list({ userId: "chris" })[0]!;
    expect(entry).toMatchObject({ rowId: earl.id, action: "delete", triggerText: "stimmt nicht" });
    await h.lilo.corrections.undo(entry.id);
    expect(h.lilo.memory.get("chris", "notes", earl.id)?.text).toBe("Christian trinkt gern Earl Grey");

    // veraltet: superseded with the date, kept in the history.
    const old = h.tg.pushCallback({ fromId: CHRIS, chatId: CHRIS, messageId, data: `w:o:I${boat.id}` });
    expect((await pressed(old.id)).params.text).toContain("🕰 Als veraltet markiert");
    expect(h.lilo.memory.get("chris", "important", boat.id)).toBeUndefined();
    expect(h.lilo.corrections.list({ userId: "chris" })[0]!.reason).toMatch(/outdated on \d{4}-\d{2}-\d{2}/);
    // vergessen: forget everywhere, after the yes to the listed findings.
    const forget = h.tg.pushCallback({ fromId: CHRIS, chatId: CHRIS, messageId, data: `w:f:N${cello.id}` });
    await pressed(forget.id);
    const [, , question] = await waitForMessages(h.tg, CHRIS, 3, WAIT);
    expect(String(question!.params.text)).toContain("Cello");
    const yes = (question!.params.reply_markup as Keyboard).inline_keyboard[0]![0]!;
    expect(yes.text).toBe("Ja");
    const answered = h.tg.pushCallback({
      fromId: CHRIS,
      chatId: CHRIS,
      messageId: (question!.result as { message_id: number }).message_id,
      data: yes.callback_data,
    });
    await pressed(answered.id);
    await h.tg.waitFor((calls) => calls.find((c) => c.method === "editMessageText" && String(c.params.text).includes("🗑 Vergessen")), WAIT);
    expect(h.lilo.memory.get("chris", "notes", cello.id)).toBeUndefined();
  });

  it("/forget <words> shows the findings and forgets only after Ja; Nein keeps everything", async () => {
    const before = messagesIn(h.tg, CHRIS).length;
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "/forget Earl Grey" });
    const asked = (await waitForMessages(h.tg, CHRIS, before + 1, WAIT)).at(-1)!;
    expect(String(asked.params.text)).toMatch(/Das habe ich gefunden \(\d+\):/);
    expect(String(asked.params.text)).toContain("Notiz");
    const [yes, no] = (asked.params.reply_markup as Keyboard).inline_keyboard[0]!;
    const askedId = (asked.result as { message_id: number }).message_id;
    const nope = h.tg.pushCallback({ fromId: CHRIS, chatId: CHRIS, messageId: askedId, data: no!.callback_data });
    await pressed(nope.id);
    expect(h.lilo.memory.list("chris").some((n) => n.text.includes("Earl Grey"))).toBe(true);

    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "/forget Earl Grey" });
    const again = (await waitForMessages(h.tg, CHRIS, before + 2, WAIT)).at(-1)!;
    const ja = h.tg.pushCallback({
      fromId: CHRIS,
      chatId: CHRIS,
      messageId: (again.result as { message_id: number }).message_id,
      data: (again.params.reply_markup as Keyboard).inline_keyboard[0]![0]!.callback_data,
    });
    await pressed(ja.id);
    await h.tg.waitFor((calls) => calls.find((c) => c.method === "editMessageText" && String(c.params.text).includes("🗑 Vergessen")), WAIT);
    expect(h.lilo.memory.list("chris").some((n) => n.text.includes("Earl Grey"))).toBe(false);
    expect(JSON.stringify(await h.lilo.recall.passages("Earl Grey", { userId: "chris", limit: 5 }))).not.toContain("Earl Grey");
    void yes;
  });
});
