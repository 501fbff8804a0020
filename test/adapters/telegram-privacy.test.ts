import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TELEGRAM_TEXTS } from "../../adapters/telegram/texts.ts";
import { CHRIS, ANNA, STRANGER, messagesIn, startTelegramHarness, waitForMessages, type TelegramHarness } from "./telegram-harness.ts";
import { readDb } from "../helpers/read-db.ts";

const T = TELEGRAM_TEXTS.de;
const GROUP = -4_200;
const SUPERGROUP = -1_000_000_004_200;
const CHANNEL = -1_000_000_007_700;
const PIN_NOTE = "Christians PIN für das Fahrradschloss ist 4711.";

/** Messages stored, by text. */
const storedTexts = (h: TelegramHarness) => (readDb(h.lilo).all("SELECT text FROM messages ORDER BY id") as { text: string }[]).map((r) => r.text);

describe("Telegram: Lilo talks in private chats only", () => {
  let h: TelegramHarness;
  beforeEach(async () => {
    h = await startTelegramHarness();
    await h.lilo.memory.add({ text: PIN_NOTE, userId: "chris" });
  });
  afterEach(async () => {
    await h.stop();
  });

  it("answers a group only with one refusal: nothing of an allowed user's memory reaches anyone there", async () => {
    h.answer = (text) => `Antwort auf ${text} mit allem, was ich weiß`;
    h.tg.pushMessage({ fromId: CHRIS, chatId: GROUP, text: "Lilo, wie ist meine PIN?" });
    h.tg.pushMessage({ fromId: CHRIS, chatId: GROUP, text: "/memory" });
    h.tg.pushMessage({ fromId: ANNA, chatId: GROUP, text: "/push on" });
    h.tg.pushMessage({ fromId: STRANGER, chatId: GROUP, text: "/forget 1" });
    // Same chat, handled in order: the button press is the barrier after the four messages.
    h.tg.pushCallback({ fromId: CHRIS, chatId: GROUP, messageId: 1, data: "forget:1" });
    const answered = await h.tg.waitFor((calls) => calls.find((c) => c.method === "answerCallbackQuery"));
    expect(answered.params.text).toBe(T.privateOnly);

    expect(messagesIn(h.tg, GROUP).map((c) => c.params.text)).toEqual([T.privateOnly]);
    expect(JSON.stringify(h.tg.sent)).not.toContain("4711");
    expect(h.anthropic.requests).toHaveLength(0);
    expect(storedTexts(h)).toEqual([]);
    expect(h.lilo.push.target("anna")).toBeUndefined();
    expect(h.lilo.memory.list("chris", { store: "notes", limit: 10 }).map((n) => n.text)).toEqual([PIN_NOTE]);
    expect(h.tg.calls("sendChatAction", GROUP)).toHaveLength(0);
  });

  it("treats a supergroup like a group, ignoring channel posts or edits entirely", async () => {
    h.tg.pushMessage({ fromId: CHRIS, chatId: SUPERGROUP, text: "/memory" });
    await waitForMessages(h.tg, SUPERGROUP, 1);
    expect(messagesIn(h.tg, SUPERGROUP)[0]!.params.text).toBe(T.privateOnly);

    h.tg.pushChannelPost({ chatId: CHANNEL, text: "Kanalpost an alle" });
    const first = h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "Hallo" });
    await waitForMessages(h.tg, CHRIS, 1);
    h.tg.pushEditedMessage({ fromId: CHRIS, chatId: CHRIS, messageId: first.message_id, text: "Hallo, bearbeitet" });
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "Noch was" });
    await waitForMessages(h.tg, CHRIS, 2);

    expect(messagesIn(h.tg, CHANNEL)).toHaveLength(0);
    expect(storedTexts(h).filter((t) => t !== "Hallo!")).toEqual(["Hallo", "Noch was"]);
  });

  it("still shows the memory in the allowed user's private chat", async () => {
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "/memory" });
    const [view] = await waitForMessages(h.tg, CHRIS, 1);
    expect(String(view!.params.text)).toContain("4711");
  });
});
