import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ADAPTERS } from "../../adapters/index.ts";
import { startTelegram } from "../../adapters/telegram/bot.ts";
import { silentLogger } from "../../core/index.ts";
import { makeTestLilo } from "../helpers/test-lilo.ts";
import { CHRIS, ANNA, messagesIn, startTelegramHarness, waitForMessages, type TelegramHarness } from "./telegram-harness.ts";
import { readDb } from "../helpers/read-db.ts";

describe("Telegram adapter: commands and push", () => {
  let h: TelegramHarness;
  beforeEach(async () => {
    h = await startTelegramHarness();
  });
  afterEach(async () => {
    await h.stop();
  });

  /** Sends a text as Christian and returns the bot's next message in his chat. */
  async function say(text: string): Promise<string> {
    const before = messagesIn(h.tg, CHRIS).length;
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text });
    const all = await waitForMessages(h.tg, CHRIS, before + 1);
    return String(all[before]!.params.text);
  }

  it("offers its commands in the menu and on /help, answering none meant for another bot", async () => {
    const menu = h.tg.sent.find((c) => c.method === "setMyCommands")!;
    const names = (menu.params.commands as { command: string }[]).map((c) => c.command);
    expect(names).toEqual(expect.arrayContaining(["start", "help", "model", "memory", "forget", "retry", "push"]));
    const help = await say("/help");
    for (const n of names) expect(help).toContain(`/${n}`);
    expect(await say("/start")).toContain("Hallo, ich bin Lilo.");
    expect(await say("/gibtsnicht")).toContain("/help");
    // Commands for other bots in a group get no answer; Lilo's own with her name do.
    const before = messagesIn(h.tg, CHRIS).length;
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "/wetter@other_bot Berlin" });
    expect(await say("/help@lilo_test_bot")).toBe(help);
    expect(messagesIn(h.tg, CHRIS)).toHaveLength(before + 1);
    expect(h.chatRequests()).toHaveLength(0);
  });

  it("/model shows or switches the chat model, refusing a bad one in the persona's language", async () => {
    expect(await say("/model")).toBe("Chat-Modell: anthropic:claude-test");
    expect(await say("/model anthropic:claude-other")).toBe("Chat-Modell ist jetzt: anthropic:claude-other");
    await say("Hallo");
    expect(h.chatRequests().at(-1)!.model).toBe("claude-other");
    // Refusals in the persona's language, nothing changed.
    // The same sentences as everywhere (core/foundation/error-texts.ts); test/adapters/error-language.test.ts has more.
    expect(await say("/model anthropic:")).toBe("⚠️ Nenne das Modell nach „anthropic:“, z. B. anthropic:&lt;Modellname&gt;.");
    expect(await say("/model mistral:large")).toMatch(/^⚠️ Den Anbieter „mistral“ gibt es nicht \(möglich: anthropic, /);
    expect(await say("/model deepseek:deepseek-chat")).toMatch(
      /^⚠️ Der Anbieter „deepseek“ ist nicht eingerichtet; das Chat-Modell bleibt, wie es war\. Der Modellanbieter „deepseek“ .*DEEPSEEK_API_KEY/,
    );
    expect(await say("/model")).toBe("Chat-Modell: anthropic:claude-other");
  });

  it("/retry redoes an answer that failed, saying so when there is nothing to retry", async () => {
    expect(await say("/retry")).toBe("Nichts zu wiederholen: deine letzte Nachricht ist beantwortet.");
    h.anthropic.fail(500);
    expect(await say("Bist du da?")).toContain("/retry");
    h.answer = (text) => `Ja, zu „${text}“.`;
    expect(await say("/retry")).toBe("Ja, zu „Bist du da?“.");
    expect(readDb(h.lilo).get("SELECT count(*) AS n FROM messages WHERE role = 'user'")).toEqual({ n: 1 });
  });

  it("/push opts a chat in or out, every push logged, even one to a user who never opted in", async () => {
    expect(await say("/push")).toContain("Push ist aus");
    expect(await say("/push on")).toBe("Okay, meine Nachrichten kommen ab jetzt in diesen Chat.");
    expect(h.lilo.push.target("chris")).toEqual({ transport: "telegram", chatId: String(CHRIS) });

    expect(await h.lilo.push.send("chris", { kind: "greeting", text: "Guten Morgen, **Christian**! 2 < 3" })).toBe("sent");
    const pushed = messagesIn(h.tg, CHRIS).at(-1)!;
    expect(pushed.params).toMatchObject({ text: "Guten Morgen, <b>Christian</b>! 2 &lt; 3", parse_mode: "HTML" });

    expect(await h.lilo.push.send("anna", { kind: "greeting", text: "Hallo Anna" })).toBe("not-opted-in");
    expect(messagesIn(h.tg, ANNA)).toHaveLength(0);
    const log = readDb(h.lilo).all("SELECT user_id AS userId, kind, transport, chat_id AS chatId, outcome FROM push_log ORDER BY id");
    expect(log).toEqual([
      { userId: "chris", kind: "greeting", transport: "telegram", chatId: String(CHRIS), outcome: "sent" },
      { userId: "anna", kind: "greeting", transport: null, chatId: null, outcome: "not-opted-in" },
    ]);

    expect(await say("/push test")).toContain("Testnachricht");
    expect(await say("/push off")).toBe("Okay, ich schicke dir nichts mehr von mir aus.");
    // /push off ran after /push test in the same chat, so the test push is logged by now.
    expect(h.lilo.push.history("chris")[0]).toMatchObject({ kind: "test", outcome: "sent" });
    expect(await h.lilo.push.send("chris", { kind: "concern", text: "🧠 …" })).toBe("not-opted-in");
    // A test push that cannot go out is explained in words, never as a raw status.
    expect(await say("/push test")).toBe("Der Test-Push ging nicht raus: Push ist hier noch aus. Schalte ihn erst ein.");
  });

  it("writes the diary or thinks on demand, saying why when there is nothing to go on", async () => {
    expect(await say("/diary")).toBe("Heute haben wir nicht gesprochen – ich erfinde keinen Tag.");
    expect(await say("/think")).toBe("Wir haben noch nicht gesprochen – worüber sollte ich nachdenken?");
    await say("Heute war ich im Kino.");
    h.answer = () => "Heute hat Christian mir vom **Kino** erzählt.";
    const diary = await say("/diary");
    expect(diary).toMatch(/^📔 Tagebucheintrag für \d{4}-\d{2}-\d{2}:\n\nHeute hat Christian mir vom <b>Kino<\/b> erzählt\.$/);
    expect(h.lilo.diary.list("chris").map((e) => e.text)).toEqual(["Heute hat Christian mir vom **Kino** erzählt."]);
    h.answer = () => "Ich vermute, Kino ist ihm gerade wichtig.";
    expect(await say("/think")).toContain("💭");
    expect(h.lilo.reflection.list("chris")).toHaveLength(1);
    expect(h.tg.calls("sendChatAction", CHRIS).length).toBeGreaterThanOrEqual(3);
  });

  it("logs a push Telegram refuses as failed", async () => {
    await say("/push on");
    h.tg.failNext("sendMessage", 403, "Forbidden: bot was blocked by the user");
    expect(await h.lilo.push.send("chris", { kind: "diary", text: "Ich habe geschrieben." })).toBe("failed");
    expect(h.lilo.push.history("chris")[0]).toMatchObject({ outcome: "failed", error: expect.stringContaining("blocked") });
  });
});

describe("Telegram adapter registration", () => {
  it("is in ADAPTERS", () => {
    expect(ADAPTERS).toContain(startTelegram);
  });

  it("does not start without TELEGRAM_BOT_TOKEN", async () => {
    const t = makeTestLilo({ ANTHROPIC_API_KEY: "sk-ant-test" });
    try {
      expect(await startTelegram(t.lilo, silentLogger)).toBeUndefined();
    } finally {
      await t.cleanup();
    }
  });
});
