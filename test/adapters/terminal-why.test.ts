import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { typeIntoTerminal } from "./terminal-session.ts";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { JUDGE_PROMPT_MARK } from "../../core/conversation/prompts/correction.ts";
import { makeTestLilo, isExtraction, NO_EXTRACTION, type TestLilo } from "../helpers/test-lilo.ts";

// Explaining and correcting memories: the terminal chat takes /why and /forget <words> exactly like Telegram, "ja" typed as the yes.
describe("terminal: /why, /wrong and /forget <words>", () => {
  let fake: FakeAnthropic;
  let t: TestLilo;
  /** The same with an English persona. */
  let en: TestLilo;
  beforeAll(async () => {
    fake = await startFakeAnthropic();
    fake.replyAlways((b) => {
      if (isExtraction(b.system)) return NO_EXTRACTION;
      // The judge of "stimmt nicht": rewrite the one memory it was shown.
      const id = /id=(m\d+) /.exec(String(b.messages.at(-1)?.content))?.[1];
      if (String(b.system).includes(JUDGE_PROMPT_MARK) && id)
        return JSON.stringify({
          verdicts: [{ id, action: "rewrite", text: b.system?.includes("English") ? "Owner drinks coffee" : "Owner trinkt gern Kaffee" }],
        });
      return "Klar, Earl Grey.";
    });
    t = makeTestLilo({ ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: fake.baseURL, LILO_CHAT_MODEL: "anthropic:claude-test" });
    await t.lilo.memory.add({ text: "Owner trinkt gern Earl Grey", userId: "owner", store: "notes", extra: { provenance: "user", provenance_ref: "3" } });
    await t.lilo.memory.add({ text: "Owner mag Earl Grey mit Milch", userId: "owner", store: "notes" });
    en = makeTestLilo({ ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: fake.baseURL, LILO_CHAT_MODEL: "anthropic:claude-test", LILO_LANGUAGE: "en" });
    await en.lilo.memory.add({ text: "Owner drinks Earl Grey", userId: "owner", store: "notes", extra: { provenance: "user", provenance_ref: "3" } });
  });
  afterAll(async () => {
    await en.cleanup();
    await t.cleanup();
    await fake.close();
  });

  /** Runs the lines through the terminal chat; returns what it printed. */
  async function chat(lines: string[], lilo = t.lilo): Promise<string> {
    const printed = await typeIntoTerminal(lilo, [...lines, "/quit"]);
    await lilo.idle();
    return printed;
  }

  it("the terminal explains and corrects memories like the chat: /why with origins, /wrong judged on the reply, /forget only after 'ja'", async () => {
    const first = t.lilo.memory.list("owner").find((n) => n.text.includes("trinkt"))!;
    const out = await chat(["Was trinke ich gern? Earl Grey?", "/why", `/wrong N${first.id}`, "Stimmt doch", `/wrong N${first.id}`, "Heute trinke ich Kaffee"]);
    expect(out).toContain("Das hatte ich für diese Antwort im Kopf:");
    expect(out).toContain(`N${first.id} · Notiz: Owner trinkt gern Earl Grey`);
    expect(out).toContain("↳ deine Worte (Nachricht 3)");
    expect(out).toContain("Was stimmt an „Owner trinkt gern Earl Grey“ nicht?");
    expect(out).toContain("→ Löschen / Stimmt doch");
    expect(out).toContain("Okay, „Owner trinkt gern Earl Grey“ bleibt, wie es ist.");
    expect(out).toMatch(/✏️ Berichtigt: „Owner trinkt gern Earl Grey“ → „Owner trinkt gern Kaffee“ \(rückgängig: lilo corrections undo (\d+)\)/);
    expect(t.lilo.memory.get("owner", "notes", first.id)).toBeUndefined();
    expect(t.lilo.corrections.list({ userId: "owner" })[0]).toMatchObject({ rowId: first.id, action: "rewrite", triggerText: "Heute trinke ich Kaffee" });

    const nein = await chat(["/forget Earl Grey", "nein"]);
    expect(nein).toMatch(/Das habe ich gefunden \(\d+\):/);
    expect(nein).toContain("→ Ja / Nein");
    expect(nein).toContain("Okay, ich vergesse nichts.");
    expect(t.lilo.memory.list("owner").some((n) => n.text.includes("Earl Grey"))).toBe(true);

    const ja = await chat(["/forget Earl Grey", "ja"]);
    expect(ja).toMatch(/🗑 Vergessen: \d+ entfernt, \d+ umgeschrieben, [1-9]\d* Nachrichten geschwärzt\./);
    expect(t.lilo.memory.list("owner").some((n) => n.text.includes("Earl Grey"))).toBe(false);
    expect(await t.lilo.recall.passages("Earl Grey", { userId: "owner", limit: 5 })).toEqual([]);
  });

  it("speaks the English persona's language: /why, /wrong with a typed correction, /forget with a typed yes", async () => {
    const note = en.lilo.memory.list("owner")[0]!;
    const out = await chat(["Do I like Earl Grey?", "/why", `/wrong N${note.id}`, "I drink coffee now"], en.lilo);
    expect(out).toContain("This is what I had in mind for that answer:");
    expect(out).toContain(`N${note.id} · note: Owner drinks Earl Grey\n   ↳ your words (message 3)`);
    expect(out).toContain("Reply with /wrong N12, /outdated N12 or /forget N12");
    expect(out).toContain('What is wrong about "Owner drinks Earl Grey"?');
    expect(out).toContain("→ Delete / It's right");
    expect(out).toMatch(/✏️ Corrected: "Owner drinks Earl Grey" → "Owner drinks coffee" \(undo: lilo corrections undo \d+\)/);
    const yes = await chat(["/forget coffee", "yes"], en.lilo);
    expect(yes).toMatch(/This is what I found \(\d+\):/);
    expect(yes).toContain("→ Yes / No");
    expect(yes).toMatch(/🗑 Forgotten: [1-9]\d* removed/);
    expect(en.lilo.memory.list("owner").some((n) => n.text.includes("coffee"))).toBe(false);
  });
});
