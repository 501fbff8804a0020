import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { makeTestLilo, isExtraction, NO_EXTRACTION, fakeAnthropicEnv, type TestLilo } from "../../helpers/test-lilo.ts";
import { fixedClock } from "../../../core/index.ts";

/** Friday 5 December 2025, 11:00 in Berlin. */
const clock = fixedClock("2025-12-05T10:00:00Z");
const BERLIN = { LILO_TIMEZONE: "Europe/Berlin", LILO_LANGUAGE: "de" };
const CONFIRMED = "⏰ Ich erinnere dich morgen, Sa 6.12., um 09:00 an: Tabletten nehmen";
const MESSAGE = { userId: "chris", text: "Erinnere mich morgen um 9 an die Tabletten", transport: "telegram", chatId: "111" };

/** The text of the tool result (native path) or of the follow-up's results (marker path) the model got back. */
const lastUserText = (fake: FakeAnthropic, i: number): string => JSON.stringify(fake.requests[i]!.messages.at(-1)!.content);

describe("a reminder set by talking", () => {
  let t: TestLilo | undefined;
  let fake: FakeAnthropic | undefined;
  afterEach(async () => {
    await t?.cleanup();
    await fake?.close();
    t = fake = undefined;
  });

  it("the set_reminder tool sets it from the person's words for the chat they wrote in, and the model gets the confirmation", async () => {
    fake = await startFakeAnthropic();
    fake
      .reply({ text: "", toolCalls: [{ id: "t1", name: "set_reminder", input: { when: "morgen um 9", what: "Tabletten nehmen" } }] })
      .reply(`Mach ich! ${CONFIRMED}`)
      .replyAlways(NO_EXTRACTION);
    t = makeTestLilo(fakeAnthropicEnv(fake, BERLIN), { clock });
    const r = await t.lilo.handleMessage(MESSAGE);
    await t.lilo.idle();
    expect(r.text).toBe(`Mach ich! ${CONFIRMED}`);
    expect(JSON.stringify(fake.requests[0]!.tools)).toContain('"set_reminder"');
    expect(lastUserText(fake, 1)).toContain(`Bestätige sie mit genau diesem Satz (Tag und Uhrzeit unverändert): ${CONFIRMED}`);
    const [reminder] = t.lilo.reminders.list("chris");
    expect(reminder).toMatchObject({ text: "Tabletten nehmen", dueAt: "2025-12-06T08:00:00.000Z", transport: "telegram", chatId: "111", source: "tool" });
    expect(reminder!.sourceMessageId).toBe(r.userMessageId);
    expect(t.lilo.reminders.why("chris", reminder!.id)).toBe(
      "🔎 Die Erinnerung „Tabletten nehmen“ hast du mir am Fr 5.12., 11:00 aufgetragen, mit diesen Worten: „Erinnere mich morgen um 9 an die Tabletten“",
    );
  });

  it("the [REMIND:] marker sets it for a model without tools; an unclear time stores nothing and is asked back", async () => {
    fake = await startFakeAnthropic();
    fake.replyAlways((b) => {
      if (isExtraction(b.system)) return NO_EXTRACTION;
      const last = JSON.stringify(b.messages.at(-1)!.content);
      if (last.includes("KEINE Erinnerung")) return "Wann genau?";
      if (last.includes("Erinnerung ist gespeichert")) return CONFIRMED;
      return last.includes("irgendwann") ? "[REMIND: irgendwann mal | Steuer]" : "[REMIND: morgen um 9 | Tabletten nehmen]";
    });
    t = makeTestLilo(fakeAnthropicEnv(fake, { ...BERLIN, LILO_NATIVE_TOOLS: "markers" }), { clock });
    const r = await t.lilo.handleMessage(MESSAGE);
    await t.lilo.idle();
    expect(fake.requests[0]!.system).toContain("[REMIND: morgen um 9 | Tabletten nehmen]");
    expect(r.text).toBe(CONFIRMED);
    expect(t.lilo.reminders.list("chris").map((x) => [x.text, x.dueAt, x.chatId])).toEqual([["Tabletten nehmen", "2025-12-06T08:00:00.000Z", "111"]]);

    const unclear = await t.lilo.handleMessage({ ...MESSAGE, text: "Erinner mich irgendwann mal an die Steuer" });
    await t.lilo.idle();
    expect(unclear.text).toBe("Wann genau?");
    const followUp = fake.requests.filter((b) => !isExtraction(b.system)).at(-1)!;
    expect(JSON.stringify(followUp.messages.at(-1)!.content)).toContain("Es wurde KEINE Erinnerung gespeichert");
    expect(t.lilo.reminders.list("chris")).toHaveLength(1);
  });
});
