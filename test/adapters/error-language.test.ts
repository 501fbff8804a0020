import { afterEach, describe, expect, it } from "vitest";
import { typeIntoTerminal } from "./terminal-session.ts";
import type { Lilo } from "../../core/index.ts";
import { CHRIS, messagesIn, startTelegramHarness, waitForMessages, type TelegramHarness } from "./telegram-harness.ts";

/** Words only English uses, in a German chat they mean a core message leaked through untranslated. */
const ENGLISH = /\b(the|needs|set|refused|request|provider|failed|could not|is not)\b/;

/**
 * One language per persona, for errors too: a German persona's chat says a
 * missing API key, a refused key, a provider's outage, a refused model switch
 * and a failed /diary in German — through the real Telegram adapter (fake
 * Bot API) and the terminal — and an English persona's in English.
 */
describe("errors reach the chat in the persona's language", () => {
  let h: TelegramHarness | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  async function say(text: string): Promise<string> {
    const before = messagesIn(h!.tg, CHRIS).length;
    h!.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text });
    const all = await waitForMessages(h!.tg, CHRIS, before + 1);
    return String(all[before]!.params.text);
  }

  it("German persona on Telegram: a missing API key is said in German", async () => {
    h = await startTelegramHarness({ env: { ANTHROPIC_API_KEY: "" } });
    const reply = await say("Hallo Lilo");
    expect(reply).toBe(
      "⚠️ Ich konnte gerade nicht antworten (Der Modellanbieter „anthropic“ braucht einen API-Schlüssel: setze ANTHROPIC_API_KEY). " +
        "Deine Nachricht ist gespeichert. Bitte prüfe die Modell-Einstellungen.",
    );
    expect(reply).not.toMatch(ENGLISH);
    // The log keeps the English message.
    expect(h.chatRequests()).toHaveLength(0);
  });

  it("German persona on Telegram: every error is said in German (a failing model, a refused switch, a failed /diary)", async () => {
    h = await startTelegramHarness();
    h.anthropic.fail(401);
    const refusedKey = await say("Hallo Lilo");
    expect(refusedKey).toContain("(Der Modellanbieter „anthropic“ hat den API-Schlüssel abgelehnt (HTTP 401))");
    expect(refusedKey).not.toMatch(ENGLISH);

    h.anthropic.fail(503);
    const outage = await say("Bist du da?");
    expect(outage).toContain("Der Modellanbieter „anthropic“ hat gerade eine Störung (HTTP 503)");
    expect(outage).toContain("/retry");
    expect(outage).not.toMatch(ENGLISH);

    const unusable = await say("/model deepseek:deepseek-chat");
    expect(unusable).toMatch(/^⚠️ Der Anbieter „deepseek“ ist nicht eingerichtet; das Chat-Modell bleibt, wie es war\. Der Modellanbieter „deepseek“ braucht/);
    expect(unusable).toContain("DEEPSEEK_API_KEY");
    expect(unusable).not.toMatch(ENGLISH);
    expect(await say("/model mistral:large")).toMatch(/^⚠️ Den Anbieter „mistral“ gibt es nicht \(möglich: anthropic, /);
    expect(await say("/model anthropic:")).toBe("⚠️ Nenne das Modell nach „anthropic:“, z. B. anthropic:&lt;Modellname&gt;."); // sent as HTML

    h.answer = () => "Schön.";
    expect(await say("Heute war ein guter Tag.")).toBe("Schön.");
    await h.lilo.idle(); // the extraction after the answer has had its call
    h.anthropic.fail(500);
    const diary = await say("/diary");
    expect(diary).toBe("⚠️ Das hat nicht geklappt: Der Modellanbieter „anthropic“ hat gerade eine Störung (HTTP 500).");
  });

  it("English persona on Telegram: the same errors in English", async () => {
    h = await startTelegramHarness({ env: { ANTHROPIC_API_KEY: "", LILO_LANGUAGE: "en" } });
    expect(await say("Hi Lilo")).toBe(
      '⚠️ I couldn\'t answer just now (The model provider "anthropic" needs an API key: set ANTHROPIC_API_KEY). Your message is saved. Please check the model settings.',
    );
  });

  it("German persona in the terminal: every error is said in German (a failing model, a refused /model)", async () => {
    h = await startTelegramHarness();
    const printed = await terminal(h.lilo, () => h!.anthropic.fail(429), ["Hallo", "/model nirgendwo:x", "/model deepseek"]);
    expect(printed).toContain("Lilo: ⚠️ Ich konnte gerade nicht antworten (Der Modellanbieter „anthropic“ nimmt gerade keine weiteren Anfragen an (HTTP 429))");
    expect(printed).toContain("⚠️ Den Anbieter „nirgendwo“ gibt es nicht");
    expect(printed).toContain("⚠️ Der Anbieter „deepseek“ ist nicht eingerichtet");
    expect(printed).not.toMatch(ENGLISH);
  });
});

/** Runs the terminal chat over the lines (after `before`) and returns what it printed. */
function terminal(lilo: Lilo, before: () => void, lines: string[]): Promise<string> {
  return typeIntoTerminal(lilo, lines, { userId: "chris", before });
}
