import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CHRIS, gate, messagesIn, startTelegramHarness, waitForMessages, type TelegramHarness } from "./telegram-harness.ts";
import { until } from "../crash/world.ts";
import { readDb } from "../helpers/read-db.ts";

const rows = (h: TelegramHarness) =>
  readDb(h.lilo).all("SELECT role, text, reply_state AS replyState, delivery, transport, external_id AS externalId FROM messages ORDER BY id") as Record<
    string,
    unknown
  >[];

describe("Telegram adapter: durable inbox and delivery state", () => {
  let h: TelegramHarness;
  beforeEach(async () => {
    h = await startTelegramHarness();
  });
  afterEach(async () => {
    await h.stop();
  });

  it("stores a message with its delivery when its batch arrives, before the turn ahead of it has finished", async () => {
    const hold = gate();
    h.answer = async (text) => {
      if (text === "erste") await hold.promise;
      return `Antwort: ${text}`;
    };
    const first = h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "erste" });
    await until(() => h.chatRequests().length === 1, 5_000);
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "zweite" });
    // Stored while still waiting behind the first turn, and Telegram has been told it was received.
    await until(() => h.tg.confirmedUpdateId >= h.tg.lastUpdateId && rows(h).length === 2, 5_000);
    expect(rows(h).map((r) => [r.text, r.replyState])).toEqual([
      ["erste", "pending"],
      ["zweite", "pending"],
    ]);
    hold.open();
    await waitForMessages(h.tg, CHRIS, 2);
    await until(() => rows(h).filter((r) => r.delivery === "delivered" && r.role === "assistant").length === 2, 5_000);
    expect(rows(h)[0]).toMatchObject({ transport: "telegram", externalId: `${CHRIS}:${first.message_id}`, replyState: "answered" });
    expect(messagesIn(h.tg, CHRIS).map((c) => c.params.text)).toEqual(["Antwort: erste", "Antwort: zweite"]);
  });

  it("a refused answer is never lost: sent again as plain text in shorter parts, else marked failed for /retry to redo the turn", async () => {
    h.answer = () => "Hier ist **die** Antwort.";
    h.tg.failNext("sendMessage", 400, "Bad Request: message is too long");
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "Hallo" });
    const [plain] = await waitForMessages(h.tg, CHRIS);
    expect(plain!.params).toMatchObject({ text: "Hier ist **die** Antwort." });
    expect(plain!.params.parse_mode).toBeUndefined();
    await until(() => rows(h).some((r) => r.delivery === "delivered"), 5_000);

    h.tg.failNext("sendMessage", 400, "Bad Request: message is too long").failNext("sendMessage", 400, "Bad Request: message is too long");
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "Noch eine Frage" });
    await until(() => rows(h).some((r) => r.delivery === "failed"), 5_000);
    h.answer = () => "Zweiter Versuch.";
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "/retry" });
    await until(() => rows(h).some((r) => r.text === "Zweiter Versuch." && r.delivery === "delivered"), 5_000);
    const answers = rows(h).filter((r) => r.role === "assistant");
    expect(answers.map((r) => [r.text, r.delivery])).toEqual([
      ["Hier ist **die** Antwort.", "delivered"],
      ["Hier ist **die** Antwort.", "failed"],
      ["Zweiter Versuch.", "delivered"],
    ]);
  });

  it("an empty or markers-only model answer is no answer: not stored, the user told, /retry still working", async () => {
    h.answer = () => "[EMOTION: froh]";
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "Hallo" });
    const [note] = await waitForMessages(h.tg, CHRIS);
    expect(String(note!.params.text)).toContain("leer geantwortet");
    // Asked twice (once more after the empty answer), nothing stored as Lilo's answer.
    expect(h.chatRequests()).toHaveLength(2);
    expect(rows(h).map((r) => [r.role, r.replyState])).toEqual([["user", "failed"]]);
    h.answer = () => "Jetzt aber.";
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "/retry" });
    await waitForMessages(h.tg, CHRIS, 2);
    expect(rows(h).map((r) => [r.role, r.text, r.replyState])).toEqual([
      ["user", "Hallo", "answered"],
      ["assistant", "Jetzt aber.", "answered"],
    ]);
  });
});
