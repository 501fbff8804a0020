import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CHRIS, ANNA, messagesIn, startTelegramHarness, waitForMessages, lastUserText, type TelegramHarness } from "../../adapters/telegram-harness.ts";
import { callKind } from "./scenario.ts";

const RULE = "Wenn Christian 'Kinews' sagt, immer in der lokalen Datenbank suchen, nie im Internet.";
const NO_EXTRACTION = JSON.stringify({ facts: [], content: [], profile: [], important: [] });

describe("a learned rule confirmed through a Telegram button", () => {
  let h: TelegramHarness;
  beforeEach(async () => {
    h = await startTelegramHarness();
    h.anthropic.replyAlways((body) => {
      const kind = callKind(body);
      if (kind === "rule") return JSON.stringify({ rule: RULE });
      if (kind === "extraction") return NO_EXTRACTION;
      return lastUserText(body).includes("Kinews?") ? "Ich habe im Internet gesucht: …" : "Stimmt, tut mir leid.";
    });
  });
  afterEach(async () => {
    await h.stop();
  });

  it("asks with Ja/Nein buttons that only the owner can answer", async () => {
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "Was gibt es Neues bei Kinews?" });
    await waitForMessages(h.tg, CHRIS, 1);
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "Das ist falsch, Kinews ist meine lokale Datenbank!" });
    const sent = await waitForMessages(h.tg, CHRIS, 3);
    const question = sent[2]!;
    expect(String(question.params.text)).toContain(`Soll ich mir das merken? 📌 „${RULE}“`);
    const raw = question.params.reply_markup;
    const markup = (typeof raw === "string" ? JSON.parse(raw) : raw) as { inline_keyboard: { text: string; callback_data: string }[][] };
    const [yes, no] = markup.inline_keyboard[0]!;
    expect([yes!.text, no!.text]).toEqual(["Ja", "Nein"]);
    expect(h.lilo.rules.list("chris")).toEqual([]);

    const messageId = (question.result as { message_id: number }).message_id;
    // Anna cannot confirm Christian's rule.
    h.tg.pushCallback({ fromId: ANNA, chatId: CHRIS, messageId, data: yes!.callback_data });
    await h.tg.waitFor((calls) => calls.find((c) => c.method === "answerCallbackQuery"));
    expect(h.lilo.rules.list("chris")).toEqual([]);

    h.tg.pushCallback({ fromId: CHRIS, chatId: CHRIS, messageId, data: yes!.callback_data });
    const edited = await h.tg.waitFor((calls) => calls.find((c) => c.ok && c.method === "editMessageText"));
    expect(String(edited.params.text)).toContain("📌 Gemerkt");
    expect(h.lilo.rules.list("chris").map((r) => r.text)).toEqual([RULE]);

    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "Und sonst?" });
    await waitForMessages(h.tg, CHRIS, 4);
    expect(messagesIn(h.tg, CHRIS)).toHaveLength(4);
    expect(
      h
        .chatRequests()
        .filter((r) => callKind(r) === "chat")
        .at(-1)!.system,
    ).toContain(`- ${RULE}`);
  });
});
