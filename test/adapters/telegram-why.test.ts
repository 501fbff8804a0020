import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { JUDGE_PROMPT_MARK } from "../../core/conversation/prompts/correction.ts";
import type { SentCall } from "../fakes/fake-telegram.ts";
import { isExtraction } from "../helpers/test-lilo.ts";
import { readDb } from "../helpers/read-db.ts";
import { CHRIS, lastUserText, startTelegramHarness, waitForMessages, messagesIn, type TelegramHarness } from "./telegram-harness.ts";

// Explaining and correcting memories through the real grammY adapter and the fake Bot API: /why with its three buttons, /forget <words> with yes/no.
/** Waits are generous: the machine may be busy; nothing sleeps, every wait ends on the awaited call. */
const WAIT = 30_000;
type Keyboard = { inline_keyboard: { text: string; callback_data: string }[][] };

describe("Telegram: /why and /forget <words>", () => {
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

  /** The fake model answers the judge (its candidate's id taken from the prompt) with this verdict; returns the judge prompts it got. */
  const judge = (verdict: { action: string; text?: string; reason: string }) => {
    const prompts: string[] = [];
    h.answer = (text) => {
      const id = /id=(m\d+) /.exec(text)?.[1];
      if (!text.includes("<candidates>") || !id) return "Gern!";
      prompts.push(text);
      return JSON.stringify({ verdicts: [{ id, ...verdict }] });
    };
    return prompts;
  };

  /** Taps a question's button (0: its yes, 1: its no) and waits until the press is answered; returns the button's label. */
  const tap = async (question: SentCall, index = 0) => {
    const button = (question.params.reply_markup as Keyboard).inline_keyboard[0]![index]!;
    const messageId = (question.result as { message_id: number }).message_id;
    await pressed(h.tg.pushCallback({ fromId: CHRIS, chatId: CHRIS, messageId, data: button.callback_data }).id);
    return button.text;
  };
  /** Waits until a message was edited to show `text` (a question's outcome under it). */
  const edited = (text: string) => h.tg.waitFor((calls) => calls.find((c) => c.method === "editMessageText" && String(c.params.text).includes(text)), WAIT);

  const pressed = (id: string) => h.tg.waitFor((calls) => calls.find((c) => c.method === "answerCallbackQuery" && c.params.callback_query_id === id), WAIT);

  it("/why lists the last answer's memories with stimmt nicht / veraltet / vergessen, each button doing what it says", async () => {
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

    // stimmt nicht: Lilo asks what is wrong; the reply goes with the memory to the judge, which rewrites it (logged, undoable).
    const wrong = h.tg.pushCallback({ fromId: CHRIS, chatId: CHRIS, messageId, data: `w:x:N${earl.id}` });
    await pressed(wrong.id);
    const [, , asked] = await waitForMessages(h.tg, CHRIS, 3, WAIT);
    expect(String(asked!.params.text)).toBe(
      "Was stimmt an „Christian trinkt gern Earl Grey“ nicht? Schreib mir, wie es richtig ist, dann berichtige ich es. Ist es einfach falsch: „Löschen“.",
    );
    expect((asked!.params.reply_markup as Keyboard).inline_keyboard[0]!.map((b) => b.text)).toEqual(["Löschen", "Stimmt doch"]);
    expect(h.lilo.memory.get("chris", "notes", earl.id)?.text).toBe("Christian trinkt gern Earl Grey"); // nothing changes before the reply
    const judged = judge({ action: "rewrite", text: "Christian trinkt gern Rooibos", reason: "he drinks Rooibos" });
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "Ich trinke lieber Rooibos, nicht Earl Grey" });
    const [, , , corrected] = await waitForMessages(h.tg, CHRIS, 4, WAIT);
    expect(String(corrected!.params.text)).toMatch(
      /^✏️ Berichtigt: „Christian trinkt gern Earl Grey“ → „Christian trinkt gern Rooibos“ \(rückgängig: lilo corrections undo \d+\)$/,
    );
    const judgeCall = judged.at(-1)!;
    expect(judgeCall).toContain("Ich trinke lieber Rooibos, nicht Earl Grey");
    expect(judgeCall).toContain(`id=m${earl.id} `);
    expect(h.lilo.memory.get("chris", "notes", earl.id)).toBeUndefined();
    const rewritten = h.lilo.memory.list("chris").find((n) => n.text === "Christian trinkt gern Rooibos")!;
    expect(rewritten.extra).toMatchObject({ provenance: "user" });
    const entry = h.lilo.corrections.list({ userId: "chris" })[0]!;
    expect(entry).toMatchObject({ rowId: earl.id, action: "rewrite", newRowId: rewritten.id, triggerText: "Ich trinke lieber Rooibos, nicht Earl Grey" });
    expect(
      h
        .chatRequests()
        .filter((r) => !String(r.system).includes(JUDGE_PROMPT_MARK))
        .map(lastUserText),
    ).not.toContain("Ich trinke lieber Rooibos, nicht Earl Grey"); // the reply was the correction, not a chat turn
    await h.lilo.corrections.undo(entry.id);
    expect(h.lilo.memory.get("chris", "notes", earl.id)?.text).toBe("Christian trinkt gern Earl Grey");
    expect(h.lilo.memory.get("chris", "notes", rewritten.id)).toBeUndefined();

    // stimmt nicht → "Löschen": superseded without a reply, logged, undoable.
    const wrongAgain = h.tg.pushCallback({ fromId: CHRIS, chatId: CHRIS, messageId, data: `w:x:N${earl.id}` });
    await pressed(wrongAgain.id);
    const [, , , , again] = await waitForMessages(h.tg, CHRIS, 5, WAIT);
    expect(await tap(again!)).toBe("Löschen");
    await edited("✏️ Gelöscht: „Christian trinkt gern Earl Grey“ (rückgängig: lilo corrections undo");
    expect(h.lilo.memory.get("chris", "notes", earl.id)).toBeUndefined();
    const deletion = h.lilo.corrections.list({ userId: "chris" })[0]!;
    expect(deletion).toMatchObject({ rowId: earl.id, action: "delete", triggerText: "stimmt nicht" });
    await h.lilo.corrections.undo(deletion.id);
    expect(h.lilo.memory.get("chris", "notes", earl.id)?.text).toBe("Christian trinkt gern Earl Grey");

    // veraltet: superseded with the date, kept in the history.
    const old = h.tg.pushCallback({ fromId: CHRIS, chatId: CHRIS, messageId, data: `w:o:I${boat.id}` });
    expect((await pressed(old.id)).params.text).toContain("🕰 Als veraltet markiert");
    expect(h.lilo.memory.get("chris", "important", boat.id)).toBeUndefined();
    expect(h.lilo.corrections.list({ userId: "chris" })[0]!.reason).toMatch(/outdated on \d{4}-\d{2}-\d{2}/);
    // vergessen: forget everywhere, after the yes to the listed findings.
    const forget = h.tg.pushCallback({ fromId: CHRIS, chatId: CHRIS, messageId, data: `w:f:N${cello.id}` });
    await pressed(forget.id);
    const question = (await waitForMessages(h.tg, CHRIS, 6, WAIT))[5];
    expect(String(question!.params.text)).toContain("Cello");
    expect(await tap(question!)).toBe("Ja");
    await edited("🗑 Vergessen");
    expect(h.lilo.memory.get("chris", "notes", cello.id)).toBeUndefined();
  });

  it("/forget <words> shows the findings, forgetting them only after Ja", async () => {
    const before = messagesIn(h.tg, CHRIS).length;
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "/forget Earl Grey" });
    const asked = (await waitForMessages(h.tg, CHRIS, before + 1, WAIT)).at(-1)!;
    expect(String(asked.params.text)).toMatch(/Das habe ich gefunden \(\d+\):/);
    expect(String(asked.params.text)).toContain("Notiz");
    expect(await tap(asked, 1)).toBe("Nein");
    expect(h.lilo.memory.list("chris").some((n) => n.text.includes("Earl Grey"))).toBe(true);

    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "/forget Earl Grey" });
    const again = (await waitForMessages(h.tg, CHRIS, before + 2, WAIT)).at(-1)!;
    expect(await tap(again)).toBe("Ja");
    await edited("🗑 Vergessen");
    expect(h.lilo.memory.list("chris").some((n) => n.text.includes("Earl Grey"))).toBe(false);
    expect(JSON.stringify(await h.lilo.recall.passages("Earl Grey", { userId: "chris", limit: 5 }))).not.toContain("Earl Grey");
  });
  it("/forget e and /forget of stop words alone are refused with a sentence and no question; /forget Eis finds whole words only", async () => {
    await h.lilo.memory.add({ text: "Christian isst gern Eis", userId: "chris", store: "important" });
    await h.lilo.memory.add({ text: "Lena fährt gern Eisenbahn", userId: "chris", store: "notes" });
    await h.lilo.memory.add({ text: "Die Reise war leise", userId: "chris", store: "notes" });
    let before = messagesIn(h.tg, CHRIS).length;
    for (const words of ["e", "und der die", "the and of"]) {
      h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: `/forget ${words}` });
      const said = (await waitForMessages(h.tg, CHRIS, ++before, WAIT)).at(-1)!;
      expect(String(said.params.text)).toBe(
        `In „${words}“ steht kein Wort, nach dem ich suchen kann. Nenne eins, das etwas bedeutet, etwa einen Namen oder einen Ort – nicht einen einzelnen Buchstaben oder ein Wort wie „und“.`,
      );
      expect(said.params.reply_markup).toBeUndefined(); // nothing to say "Ja" to
    }
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "/forget Eis" });
    const asked = String((await waitForMessages(h.tg, CHRIS, before + 1, WAIT)).at(-1)!.params.text);
    expect(asked).toContain("Christian isst gern Eis");
    expect(asked).not.toContain("Eisenbahn");
    expect(asked).not.toContain("Reise");
    expect(asked).toMatch(/Das habe ich gefunden \(1\):/);
  });

  it("/why as a reply to an earlier answer explains that answer, not the last one", async () => {
    await h.lilo.memory.add({ text: "Christian wohnt in Köln", userId: "chris", store: "notes" });
    await h.lilo.memory.add({ text: "Christian liest gern Krimis", userId: "chris", store: "notes" });
    h.answer = () => "Gern!";
    const before = messagesIn(h.tg, CHRIS).length;
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "Wo wohne ich? In Köln?" });
    const first = (await waitForMessages(h.tg, CHRIS, before + 1, WAIT)).at(-1)!;
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "Was lese ich gern? Krimis?" });
    await waitForMessages(h.tg, CHRIS, before + 2, WAIT);
    const [last, earlier] = h.lilo.why.recent("chris", 2);
    const only = (a: typeof last, b: typeof last) => a!.items.filter((i) => !b!.items.some((j) => j.ref === i.ref)).map((i) => i.text);
    expect(only(earlier, last)).toContain("Christian wohnt in Köln");
    expect(only(last, earlier)).toContain("Christian liest gern Krimis");

    const replyTo = { message_id: (first.result as { message_id: number }).message_id, date: 0, chat: { id: CHRIS, type: "private" }, text: "Gern!" };
    h.tg.pushMedia({
      fromId: CHRIS,
      chatId: CHRIS,
      fields: { text: "/why", entities: [{ type: "bot_command", offset: 0, length: 4 }], reply_to_message: replyTo },
    });
    const why = String((await waitForMessages(h.tg, CHRIS, before + 3, WAIT)).at(-1)!.params.text);
    for (const text of earlier!.items.map((i) => i.text)) expect(why).toContain(text);
    for (const text of only(last, earlier)) expect(why).not.toContain(text);
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "/why" });
    expect(String((await waitForMessages(h.tg, CHRIS, before + 4, WAIT)).at(-1)!.params.text)).toContain("Christian liest gern Krimis");
  });

  it("a profile entry marked veraltet or stimmt nicht leaves the next sheet (logged) until lilo.corrections.undo brings it back", async () => {
    const job = h.lilo.profile.add("chris", "work", "Christian arbeitet als Fährmann");
    const cat = h.lilo.profile.add("chris", "other", "Christian hat einen Kater namens Moritz");
    h.answer = () => "Gern!";
    /** Sends a message, waits for the answer; returns the sheet (system prompt) that answer was written with. */
    const sheetOf = async (text: string) => {
      const before = messagesIn(h.tg, CHRIS).length;
      h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text });
      await waitForMessages(h.tg, CHRIS, before + 1, WAIT);
      return String(h.chatRequests().findLast((r) => lastUserText(r) === text)!.system);
    };
    const first = await sheetOf("Was weißt du über meine Arbeit und meinen Kater?");
    expect(first).toContain("Christian arbeitet als Fährmann");
    expect(first).toContain("Christian hat einen Kater namens Moritz");

    const before = messagesIn(h.tg, CHRIS).length;
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "/why" });
    const why = (await waitForMessages(h.tg, CHRIS, before + 1, WAIT)).at(-1)!;
    expect(String(why.params.text)).toContain(`P${job.id} · Profil: Christian arbeitet als Fährmann`);
    const buttons = (why.params.reply_markup as Keyboard).inline_keyboard.flat().map((b) => b.callback_data);
    expect(buttons).toEqual(expect.arrayContaining([`w:o:P${job.id}`, `w:x:P${cat.id}`]));
    const messageId = (why.result as { message_id: number }).message_id;
    const old = h.tg.pushCallback({ fromId: CHRIS, chatId: CHRIS, messageId, data: `w:o:P${job.id}` });
    expect(String((await pressed(old.id)).params.text)).toContain("🕰 Als veraltet markiert: „Christian arbeitet als Fährmann“");
    const wrong = h.tg.pushCallback({ fromId: CHRIS, chatId: CHRIS, messageId, data: `w:x:P${cat.id}` });
    const said = String((await pressed(wrong.id)).params.text);
    const wrongId = Number(/^✏️ Als falsch markiert: „Christian hat einen Kater namens Moritz“ \(rückgängig: lilo corrections undo (\d+)\)$/.exec(said)?.[1]);
    const outdatedId = h.lilo.corrections.list({ userId: "chris" }).find((c) => c.store === "profile" && c.rowId === job.id)!.id;

    const next = await sheetOf("Und was weißt du jetzt noch?");
    expect(next).not.toContain("Fährmann");
    expect(next).not.toContain("Moritz");

    await h.lilo.corrections.undo(outdatedId);
    await h.lilo.corrections.undo(wrongId);
    const after = await sheetOf("Und jetzt wieder?");
    expect(after).toContain("Christian arbeitet als Fährmann");
    expect(after).toContain("Christian hat einen Kater namens Moritz");
    expect(h.lilo.profile.list("chris").find((p) => p.id === job.id)).toMatchObject({ category: "work", text: "Christian arbeitet als Fährmann" });
  });
  it(
    "/why shows a fact kept as note, important memory and profile entry once, naming every store; an inference names the person's message",
    { timeout: 60_000 },
    async () => {
      const fact = "Christian hat einen Hund namens Bello";
      const extraction = JSON.stringify({
        facts: [{ text: fact, about: "user" }],
        content: [],
        profile: [{ category: "other", text: fact }],
        important: [{ text: fact, weight: 2 }],
      });
      const none = JSON.stringify({ facts: [], content: [], profile: [], important: [] });
      h.anthropic.replyAlways((body) => (isExtraction(body.system) ? (JSON.stringify(body.messages).includes("Bello") ? extraction : none) : "Gern!"));
      try {
        let before = messagesIn(h.tg, CHRIS).length;
        h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "Ich habe einen Hund namens Bello." });
        await waitForMessages(h.tg, CHRIS, ++before, WAIT);
        // The extraction runs after the reply: wait until it has stored the fact.
        await vi.waitFor(() => expect(h.lilo.memory.list("chris", { store: "important" }).map((i) => i.text)).toContain(fact), { timeout: WAIT, interval: 20 });
        const important = h.lilo.memory.list("chris", { store: "important" }).find((i) => i.text === fact)!;
        const said = Number(important.extra.provenance_ref);
        expect(important.extra.provenance).toBe("inference");
        expect(readDb(h.lilo).get("SELECT role, text FROM messages WHERE id = ?", said)).toEqual({ role: "user", text: "Ich habe einen Hund namens Bello." });

        h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "Wie heißt mein Hund? Bello?" });
        await waitForMessages(h.tg, CHRIS, ++before, WAIT);
        h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "/why" });
        const why = (await waitForMessages(h.tg, CHRIS, before + 1, WAIT)).at(-1)!;
        const text = String(why.params.text);
        const copies = h.lilo.why.why("chris")!.items.filter((i) => i.text === fact);
        expect(copies.map((i) => i.store)).toEqual(expect.arrayContaining(["important", "profile"]));
        expect(text.split(fact).length - 1).toBe(1);
        const line = text.split("\n").find((l) => l.includes(fact))!;
        expect(line).toBe(
          `${copies.map((i) => i.ref).join(" · ")} · ${copies.map((i) => ({ notes: "Notiz", important: "Wichtig", profile: "Profil" })[i.store as "notes"]).join(", ")}: ${fact}`,
        );
        const origins = text.split("\n")[text.split("\n").indexOf(line) + 1]!;
        expect(origins).toContain(`deine Worte (Nachricht ${said})`);
        expect(origins).toContain(`meine Schlussfolgerung (zu Nachricht ${said})`);
        const rows = (why.params.reply_markup as Keyboard).inline_keyboard.filter((r) =>
          r.some((b) => copies.some((i) => b.callback_data.endsWith(`:${i.ref}`))),
        );
        expect(rows).toHaveLength(1); // one row of buttons for the one fact
      } finally {
        h.anthropic.replyAlways(async (body) => (isExtraction(body.system) ? none : h.answer(lastUserText(body))));
      }
    },
  );
});
