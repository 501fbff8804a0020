import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CHRIS, ANNA, STRANGER, gate, messagesIn, startTelegramHarness, waitForMessages, type TelegramHarness } from "./telegram-harness.ts";
import { readDb } from "../helpers/read-db.ts";

describe("Telegram adapter: chatting", () => {
  let h: TelegramHarness;
  beforeEach(async () => {
    h = await startTelegramHarness();
  });
  afterEach(async () => {
    await h.stop();
  });

  it("answers a message through the core turn: typing while it runs, the cheat sheet, a mood reaction", async () => {
    h.answer = () => "Mir geht's **gut**, danke! [EMOTION: froh]";
    const msg = h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "Hallo Lilo, wie geht's?" });
    const [answer] = await waitForMessages(h.tg, CHRIS);
    expect(answer!.params).toMatchObject({ chat_id: CHRIS, text: "Mir geht's <b>gut</b>, danke!", parse_mode: "HTML" });

    const chat = h.chatRequests();
    expect(chat).toHaveLength(1);
    expect(chat[0]!.messages.at(-1)).toEqual({ role: "user", content: "Hallo Lilo, wie geht's?" });
    expect(chat[0]!.system).toContain("Du bist Lilo");

    const methods = h.tg.sent.filter((c) => c.params.chat_id === CHRIS).map((c) => c.method);
    expect(methods.indexOf("sendChatAction")).toBeGreaterThanOrEqual(0);
    expect(methods.indexOf("sendChatAction")).toBeLessThan(methods.indexOf("sendMessage"));
    expect(h.tg.calls("sendChatAction", CHRIS)[0]!.params.action).toBe("typing");

    const reaction = await h.tg.waitFor((calls) => calls.find((c) => c.method === "setMessageReaction"));
    expect(reaction.params).toMatchObject({ chat_id: CHRIS, message_id: msg.message_id, reaction: [{ type: "emoji", emoji: "😁" }] });
    const rows = readDb(h.lilo).all("SELECT role, text, user_id AS userId FROM messages ORDER BY id");
    expect(rows).toEqual([
      { role: "user", text: "Hallo Lilo, wie geht's?", userId: "chris" },
      { role: "assistant", text: "Mir geht's **gut**, danke!", userId: "chris" },
    ]);
  });

  it("refuses a stranger once per chat, keeping nothing of theirs", async () => {
    h.tg.pushMessage({ fromId: STRANGER, chatId: STRANGER, text: "geheim eins" });
    h.tg.pushMessage({ fromId: STRANGER, chatId: STRANGER, text: "geheim zwei" });
    // Same chat, so handled after the stranger's two messages: a barrier without sleeping.
    h.tg.pushCallback({ fromId: STRANGER, chatId: STRANGER, messageId: 1, data: "q:1:yes" });
    await h.tg.waitFor((calls) => calls.find((c) => c.method === "answerCallbackQuery"));
    expect(messagesIn(h.tg, STRANGER).map((c) => c.params.text)).toEqual(["Entschuldige, ich spreche nur mit Menschen, die ich kenne."]);
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "Hallo" });
    await waitForMessages(h.tg, CHRIS, 1);

    expect(readDb(h.lilo).get("SELECT count(*) AS n FROM messages WHERE text LIKE '%geheim%'")).toEqual({ n: 0 });
    expect(readDb(h.lilo).all("SELECT DISTINCT user_id AS u FROM messages")).toEqual([{ u: "chris" }]);
    expect(JSON.stringify(h.anthropic.requests)).not.toContain("geheim");
    expect(h.tg.sent.some((c) => c.method === "sendChatAction" && c.params.chat_id === STRANGER)).toBe(false);
  });

  it("splits a 5,000-character answer at a paragraph border without losing anything", async () => {
    const paragraph = (i: number) => `Absatz ${i}. ` + "Das ist ein ganz gewöhnlicher Satz über den Tag. ".repeat(20).trim();
    const long = [1, 2, 3, 4, 5].map(paragraph).join("\n\n");
    expect(long.length).toBeGreaterThan(4_900);
    h.answer = () => long;
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "Erzähl mir viel" });
    const parts = await waitForMessages(h.tg, CHRIS, 2);
    await h.lilo.idle();
    expect(messagesIn(h.tg, CHRIS)).toHaveLength(2);
    const texts = parts.map((p) => String(p.params.text));
    for (const t of texts) expect(t.length).toBeLessThanOrEqual(4096);
    expect(texts[0]!.endsWith("über den Tag.")).toBe(true);
    expect(texts[1]!.startsWith("Absatz ")).toBe(true);
    expect(texts.join("\n\n")).toBe(long);
  });

  it("delivers broken Markdown safely, falling back to plain text when Telegram still refuses the HTML", async () => {
    h.answer = () => "2 * 3 < 7 and **unclosed";
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "Rechne mal" });
    const [first] = await waitForMessages(h.tg, CHRIS);
    expect(first!.params).toMatchObject({ text: "2 * 3 &lt; 7 and **unclosed", parse_mode: "HTML" });

    h.tg.failNext("sendMessage", 400, 'Bad Request: can\'t parse entities: Unsupported start tag "x" at byte offset 0');
    h.answer = () => "Noch **einmal** <x>";
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "Nochmal" });
    const all = await waitForMessages(h.tg, CHRIS, 2);
    expect(all[1]!.params.text).toBe("Noch **einmal** <x>");
    expect(all[1]!.params.parse_mode).toBeUndefined();
  });

  it("shows a failure reason in the persona's language, without the provider's words or its secrets", async () => {
    // The provider echoes two credentials; the user is told what happened, in German, and the echo stays in the log (redacted).
    h.anthropic.fail(401, 1, {}, "invalid x-api-key sk-ant-live-abcdef123456; Authorization: Bearer abcdefghijklmnop");
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "Bist du da?" });
    const [failure] = await waitForMessages(h.tg, CHRIS);
    const html = String(failure!.params.text);
    expect(html).not.toMatch(/<\/?[bi]>/);
    const shown = (failure!.result as { text: string }).text;
    expect(shown).toMatch(/^⚠️ Ich konnte gerade nicht antworten \(Der Modellanbieter „anthropic“ hat den API-Schlüssel abgelehnt \(HTTP 401\)\)/);
    expect(shown).not.toMatch(/abcdef123456|abcdefghijklmnop|x-api-key/);
  });

  it("answers two messages of one chat in order while another chat is answered in between", async () => {
    const hold = gate();
    h.answer = async (text) => {
      if (text === "A1") await hold.promise;
      return `Antwort ${text}`;
    };
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "A1" });
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "A2" });
    h.tg.pushMessage({ fromId: ANNA, chatId: ANNA, text: "B1" });
    await waitForMessages(h.tg, ANNA, 1);
    expect(messagesIn(h.tg, CHRIS)).toHaveLength(0);
    // A2 waits for A1 in its chat: it has not even reached the model yet.
    expect(h.chatRequests().map((r) => r.messages.at(-1)?.content)).not.toContain("A2");
    hold.open();
    const a = await waitForMessages(h.tg, CHRIS, 2);
    expect(a.map((c) => c.params.text)).toEqual(["Antwort A1", "Antwort A2"]);
    const order = h.tg.sent.filter((c) => c.ok && c.method === "sendMessage").map((c) => c.params.text);
    expect(order).toEqual(["Antwort B1", "Antwort A1", "Antwort A2"]);
  });

  it("retries a sendMessage refused with 429 after retry_after", async () => {
    h.tg.failNext("sendMessage", 429, "Too Many Requests: retry after 1", 1);
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "Hallo" });
    await waitForMessages(h.tg, CHRIS, 1);
    const tries = h.tg.sent.filter((c) => c.method === "sendMessage");
    expect(tries.map((c) => [c.ok, c.params.text])).toEqual([
      [false, "Hallo!"],
      [true, "Hallo!"],
    ]);
    expect(tries[0]!.description).toContain("Too Many Requests");
  });
});
