import { afterEach, describe, expect, it } from "vitest";
import { fixedClock } from "../../core/index.ts";
import { isExtraction, NO_EXTRACTION } from "../helpers/test-lilo.ts";
import { readDb } from "../helpers/read-db.ts";
import { CHRIS, lastUserText, messagesIn, startTelegramHarness, waitForMessages, type TelegramHarness } from "./telegram-harness.ts";

/** Every call the fake model answers costs exactly 100 tokens: a turn (answer, then the extraction after it) is 200. */
const USAGE = { input_tokens: 90, output_tokens: 10 };

/**
 * The day's budget as a hard cap, through the real Telegram adapter with the
 * fake Anthropic server counting every model call: once the budget is spent
 * and no fallback model is configured, no call reaches the server, the
 * person is told once in their language how to go on, and the message held
 * back is stored and answered by /budget and /retry.
 */
describe("Telegram: the day's budget caps the chat", () => {
  let h: TelegramHarness;
  afterEach(() => h.stop());

  async function start(env: Record<string, string>): Promise<void> {
    h = await startTelegramHarness({ env: { LILO_BUDGET_DAY: "1000 tokens", ...env }, clock: fixedClock("2026-12-03T09:00:00Z") });
    h.answer = (text) => `Zu „${text}“.`;
    h.anthropic.replyAlways(async (body) => ({ text: isExtraction(body.system) ? NO_EXTRACTION : await h.answer(lastUserText(body)), usage: USAGE }));
  }

  /** Sends a text as Christian, waits for the bot's next message and for the work after the reply; returns that message. */
  async function say(text: string): Promise<string> {
    const before = messagesIn(h.tg, CHRIS).length;
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text });
    const all = await waitForMessages(h.tg, CHRIS, before + 1);
    await h.lilo.idle();
    return String(all[before]!.params.text);
  }

  /** Sends a text as Christian and waits for the bot's reaction on it (a message held back without words). */
  async function sayHeldBack(text: string): Promise<unknown> {
    const sent = h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text });
    const reaction = await h.tg.waitFor(() => h.tg.calls("setMessageReaction", CHRIS).find((c) => c.params.message_id === sent.message_id));
    await h.lilo.idle();
    return reaction.params.reaction;
  }

  /** The bot's messages saying the budget is spent and how to go on (the 80 % heads-up names no /budget). */
  const spentSaid = () => messagesIn(h.tg, CHRIS).filter((m) => String(m.params.text).includes("/budget"));

  it("after the cap no model call is made, the sentence comes once, the message is stored and /budget with /retry answers it", async () => {
    await start({});
    for (let i = 1; i <= 5; i++) expect(await say(`Nachricht ${i}`)).toBe(`Zu „Nachricht ${i}“.`);
    expect(h.anthropic.requests).toHaveLength(10); // 1000 tokens: the fifth turn's extraction spent the budget

    const told = await say("Wie war dein Tag?");
    expect(told).toMatch(/^💸 Das Tagesbudget ist aufgebraucht \(1000 von 1000 Tokens\), darum antworte ich gerade nicht\./);
    expect(told).toContain("/budget hebt die Grenze für heute auf, dann bringt /retry meine Antwort");
    expect(told).toContain("LILO_BUDGET_DAY");
    // A later message that day: no words again, a 😴 on it instead.
    expect(await sayHeldBack("Bist du noch da?")).toEqual([{ type: "emoji", emoji: "😴" }]);
    expect(h.anthropic.requests).toHaveLength(10);
    expect(spentSaid()).toHaveLength(1);

    // Both held-back messages are stored; the newest waits for /retry.
    const rows = readDb(h.lilo).all("SELECT text, reply_state AS state FROM messages WHERE role = 'user' ORDER BY id DESC LIMIT 2");
    expect(rows).toEqual([
      { text: "Bist du noch da?", state: "failed" },
      { text: "Wie war dein Tag?", state: "failed" },
    ]);

    expect(await say("/budget")).toContain("Die Grenze des Budgets ist für heute aufgehoben");
    // The model reads both held-back messages, the newest last.
    expect(await say("/retry")).toBe("Zu „Wie war dein Tag?\n\nBist du noch da?“.");
    expect(h.anthropic.requests.length).toBeGreaterThan(10);
    expect(await say("/budget")).toContain("schon aufgehoben");
  });

  it("/retry while the cap holds says the sentence again and asks no model", async () => {
    await start({ LILO_BUDGET_DAY: "200 tokens" });
    await say("Hallo");
    expect(await say("Noch da?")).toContain("Das Tagesbudget ist aufgebraucht");
    expect(await say("/retry")).toContain("Das Tagesbudget ist aufgebraucht");
    expect(h.anthropic.requests).toHaveLength(2);
  });

  it("the push and the answer do not both say the budget is spent, in the person's language", async () => {
    await start({ LILO_BUDGET_DAY: "500 tokens", LILO_LANGUAGE: "en" });
    expect(await say("/push on")).toContain("my messages come to this chat");
    await say("One");
    await say("Two"); // 400 tokens: the 80 % heads-up is pushed
    // The heads-up comes from the work after the answer, so it may reach the chat just before or just after it.
    expect(
      messagesIn(h.tg, CHRIS)
        .slice(-2)
        .map((c) => String(c.params.text)),
    ).toContainEqual(expect.stringContaining("80 % of today's budget"));
    // The third answer's own call reaches the cap: its extraction is refused before it is sent.
    await say("Three");
    expect(h.anthropic.requests).toHaveLength(5);
    expect(await sayHeldBack("Four")).toEqual([{ type: "emoji", emoji: "😴" }]);
    expect(h.anthropic.requests).toHaveLength(5);
    const said = spentSaid();
    expect(said).toHaveLength(1);
    expect(String(said[0]!.params.text)).toContain("/budget lifts the limit for today");
  });
});
