import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Api } from "grammy";
import { silentLogger } from "../../core/index.ts";
import { normalizeMood } from "../../core/conversation/markers/emotion.ts";
import { moodReaction, parseCallback, questionCallback, sendText, withTyping } from "../../adapters/telegram/render.ts";
import { telegramTransport } from "../../adapters/telegram/transport.ts";
import { startFakeTelegram, type FakeTelegram } from "../fakes/fake-telegram.ts";
import { gate } from "./telegram-harness.ts";

describe("Telegram rendering helpers against the fake Bot API", () => {
  let tg: FakeTelegram;
  let api: Api;
  beforeEach(async () => {
    tg = await startFakeTelegram();
    api = new Api(tg.token, { apiRoot: tg.url });
  });
  afterEach(async () => {
    await tg.close();
  });

  it("repeats typing… while the work runs", async () => {
    const hold = gate();
    const work = withTyping(api, 5, silentLogger, () => hold.promise.then(() => "fertig"), 20);
    await tg.waitFor((calls) => calls.filter((c) => c.method === "sendChatAction").length >= 3);
    hold.open();
    expect(await work).toBe("fertig");
    expect(tg.calls("sendChatAction").every((c) => c.params.chat_id === 5 && c.params.action === "typing")).toBe(true);
  });

  it("puts the keyboard on the last part only", async () => {
    const keyboard = { inline_keyboard: [[{ text: "Ja", callback_data: "q:1:yes" }]] };
    const text = "a ".repeat(2500).trim() + "\n\n" + "b ".repeat(10).trim();
    await sendText(api, 5, text, silentLogger, keyboard);
    const sent = tg.calls("sendMessage");
    expect(sent).toHaveLength(2);
    expect(sent[0]!.params.reply_markup).toBeUndefined();
    expect(sent[1]!.params.reply_markup).toEqual(keyboard);
  });

  it("sends text Telegram cannot take as HTML as plain text", async () => {
    tg.failNext("sendMessage", 400, "Bad Request: can't parse entities: Can't find end tag corresponding to start tag \"b\"");
    await sendText(api, 5, "**fett**", silentLogger);
    expect(tg.calls("sendMessage").at(-1)!.params).toEqual({ chat_id: 5, text: "**fett**" });
  });

  it("sends an answer whose HTML shows nothing (an empty code block) as plain text", async () => {
    await sendText(api, 5, "``````", silentLogger);
    expect(tg.sent.map((c) => [c.method, c.ok, c.description ?? c.params.text])).toEqual([
      ["sendMessage", false, "Bad Request: message text is empty"],
      ["sendMessage", true, "``````"],
    ]);
  });

  it("delivers pushes to private chats only", async () => {
    const transport = telegramTransport(api, silentLogger);
    expect(transport.name).toBe("telegram");
    await transport.send({ transport: "telegram", chatId: "5" }, { kind: "greeting", text: "Hallo" });
    await expect(transport.send({ transport: "telegram", chatId: "-1001" }, { kind: "greeting", text: "Hallo" })).rejects.toThrow(/not a private chat/);
    await expect(transport.send({ transport: "telegram", chatId: "@kanal" }, { kind: "greeting", text: "Hallo" })).rejects.toThrow(/not a private chat/);
    expect(tg.calls("sendMessage").map((c) => c.params.chat_id)).toEqual([5]);
  });

  it("lets any other refusal through to the push log", async () => {
    const transport = telegramTransport(api, silentLogger);
    tg.failNext("sendMessage", 403, "Forbidden: bot was blocked by the user");
    await expect(transport.send({ transport: "telegram", chatId: "5" }, { kind: "test", text: "x" })).rejects.toThrow(/blocked/);
  });

  it("maps callback data to the answer or forget it stands for", () => {
    expect(parseCallback(questionCallback(42, "no"))).toEqual({ kind: "answer", questionId: 42, answer: "no" });
    expect(parseCallback("f:7")).toEqual({ kind: "forget", noteId: 7 });
    expect(parseCallback("q:x:yes")).toBeUndefined();
  });

  it("maps a canonical mood to its reaction", () => {
    expect(moodReaction("nachdenklich")).toBe("🤔");
    // What the model wrote is normalised once, in the core; the adapter only maps the canonical mood.
    expect(moodReaction(normalizeMood("glücklich"))).toBe("😁");
    expect(moodReaction(normalizeMood("unbekannt"))).toBeUndefined();
  });
});
