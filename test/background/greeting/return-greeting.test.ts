import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { makeTestLilo, isExtraction, type TestLilo, fakeAnthropicEnv, NO_EXTRACTION } from "../../helpers/test-lilo.ts";
import { seedConversation, type SeedMessage } from "../../helpers/seed-conversation.ts";
import { fixedClock } from "../../../core/index.ts";

const NOW = "2026-12-02T08:00:00Z"; // Wednesday 09:00 in Berlin
const CONTEXT = "Rückkehr nach einer Pause";

/** Monday evening, two days before NOW: eight messages, the appointment "tomorrow" among the last six. */
const MONDAY: SeedMessage[] = [
  ["user", "Erste alte Nachricht", "2026-11-30T18:00:00Z"],
  ["assistant", "Zweite alte Nachricht", "2026-11-30T18:01:00Z"],
  ["user", "Ich bin ziemlich nervös.", "2026-11-30T19:00:00Z"],
  ["assistant", "Warum denn?", "2026-11-30T19:01:00Z"],
  ["user", "Morgen um 10 habe ich das Vorstellungsgespräch.", "2026-11-30T19:02:00Z"],
  ["assistant", "Du schaffst das!", "2026-11-30T19:03:00Z"],
  ["user", "Danke, gute Nacht.", "2026-11-30T19:30:00Z"],
  ["assistant", "Gute Nacht, Christian!", "2026-11-30T19:31:00Z"],
];

describe("the greeting context on return (docs/spec.md §9)", () => {
  let fake: FakeAnthropic;
  let t: TestLilo;
  let clock: ReturnType<typeof fixedClock>;
  const chatSystems = () => fake.requests.filter((r) => !isExtraction(r.system) && r.system?.startsWith("Du bist Lilo")).map((r) => r.system!);

  beforeEach(async () => {
    clock = fixedClock(NOW);
    fake = await startFakeAnthropic();
    fake.replyAlways((body) => (isExtraction(body.system) ? NO_EXTRACTION : "Guten Morgen!"));
    t = makeTestLilo(fakeAnthropicEnv(fake), { clock });
  });
  afterEach(async () => {
    await t.cleanup();
    await fake.close();
  });

  it("the first message after a 2-day pause carries the return context: the computed pause, today's date, the last 6 messages", async () => {
    seedConversation(t.lilo, "chris", MONDAY);
    await t.lilo.handleMessage({ userId: "chris", text: "Hallo Lilo" });
    const sys = chatSystems().at(-1)!;
    expect(sys).toContain(CONTEXT);
    expect(sys).toContain("- Heute ist Mittwoch, 2. Dezember 2026, 09:00 Uhr.");
    expect(sys).toContain("- Die letzte Nachricht kam vorgestern (Montag, 30.11.), 20:31; die Pause: seit vorgestern Abend (2 Tage).");
    expect(sys).toContain("- „Morgen“ in einer Nachricht von vorgestern (Montag, 30.11.) war gestern (Dienstag, 1.12.) – das ist vorbei.");
    expect(sys).toContain("[vorgestern (Montag, 30.11.), 20:02] Christian: Morgen um 10 habe ich das Vorstellungsgespräch.");
    expect(sys).toContain("[vorgestern (Montag, 30.11.), 20:03] Du: Du schaffst das!");
    expect(sys).toContain("Frag dann, wie es gelaufen ist, statt Glück zu wünschen.");
    // The last six only.
    expect(sys).toContain("Ich bin ziemlich nervös.");
    expect(sys).not.toContain("Erste alte Nachricht");
    expect(sys).not.toContain("Zweite alte Nachricht");
  });

  it("is left out unless a pause came before the message: not on the very first message, not mid-conversation", async () => {
    await t.lilo.handleMessage({ userId: "chris", text: "Hallo, ich bin neu hier" });
    expect(chatSystems().at(-1)).not.toContain(CONTEXT);
    seedConversation(
      t.lilo,
      "chris",
      MONDAY.map(([r, text, at]) => [r, text, new Date(Date.parse(at) - 7 * 86_400_000).toISOString()]),
    );
    clock.advance(10 * 60_000);
    await t.lilo.handleMessage({ userId: "chris", text: "Noch eine Frage" });
    expect(chatSystems().at(-1)).not.toContain(CONTEXT);
  });

  it("uses English when Lilo speaks English", async () => {
    await t.cleanup();
    t = makeTestLilo(fakeAnthropicEnv(fake, { LILO_USER_NAMES: "chris=Chris", LILO_LANGUAGE: "en" }), { clock });
    seedConversation(t.lilo, "chris", MONDAY);
    await t.lilo.handleMessage({ userId: "chris", text: "Hi" });
    const sys = fake.requests.filter((r) => r.system?.startsWith("You are Lilo")).at(-1)!.system!;
    expect(sys).toContain("- Today is Wednesday, 2 December 2026, 09:00.");
    expect(sys).toContain("the pause: since the day before yesterday in the evening (2 days)");
    expect(sys).toContain(`- "Tomorrow" in a message of the day before yesterday (Monday 30 Nov) was yesterday (Tuesday 1 Dec) – that is past.`);
    expect(sys).toContain("[the day before yesterday (Monday 30 Nov), 20:02] Chris: Morgen um 10");
  });
});
