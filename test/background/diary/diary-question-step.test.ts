import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { makeTestLilo, isExtraction, type TestLilo, fakeAnthropicEnv, NO_EXTRACTION } from "../../helpers/test-lilo.ts";
import { fixedClock } from "../../../core/index.ts";
import { isDiaryQuestion } from "../../../core/background/diary/diary-question-step.ts";

describe("isDiaryQuestion: a diary word plus a trigger, whole words, German and English", () => {
  it.each([
    "Wie viele Tagebucheinträge hast du?",
    "Hast du schon Einträge?",
    "Was stand zuletzt in deinem Tagebuch?",
    "Lies mir deinen letzten Eintrag vor",
    "How many diary entries do you have?",
    "What did you write in your diary recently?",
    "Show me your latest journal entry",
  ])("recognises %j", (text) => expect(isDiaryQuestion(text)).toBe(true));

  it.each([
    "Ich führe selbst ein Tagebuch.", // diary word, no trigger
    "Wie viele Kinos gibt es in Berlin?", // trigger, no diary word
    "Die Tagebuchhülle habe ich zuletzt gekauft.", // "Tagebuch" only inside another word
    "The last elastic band", // "last" alone, no diary word
    "I keep a diary of my runs.",
  ])("ignores %j", (text) => expect(isDiaryQuestion(text)).toBe(false));
});

describe("the diary question step in a chat turn", () => {
  let fake: FakeAnthropic;
  let t: TestLilo;
  const clock = fixedClock("2026-12-02T18:00:00Z");

  beforeEach(async () => {
    fake = await startFakeAnthropic();
    fake.replyAlways((body) => (isExtraction(body.system) ? NO_EXTRACTION : "Ich habe zwei Einträge."));
    t = makeTestLilo(fakeAnthropicEnv(fake), { clock });
  });
  afterEach(async () => {
    await t.cleanup();
    await fake.close();
  });

  const chatSystem = () => fake.requests.filter((r) => !isExtraction(r.system)).at(-1)!.system!;

  it("a diary question puts the user's diary on the sheet, straight from the database: its count, its newest entries", async () => {
    const { lilo } = t;
    const long = "Heute hat Christian mir von seinem Umzug erzählt. ".repeat(20).trim();
    await lilo.memory.add({
      text: "Der erste Eintrag.",
      userId: "chris",
      store: "diary",
      createdAt: "2026-11-30T22:45:00Z",
      allowDuplicate: true,
      extra: { day: "2026-11-30" },
    });
    await lilo.memory.add({
      text: long,
      userId: "chris",
      store: "diary",
      createdAt: "2026-12-01T22:45:00Z",
      allowDuplicate: true,
      extra: { day: "2026-12-01" },
    });
    await lilo.memory.add({ text: "Annas Eintrag", userId: "anna", store: "diary", allowDuplicate: true });

    await lilo.handleMessage({ userId: "chris", text: "Wie viele Tagebucheinträge hast du schon?" });
    await lilo.idle();
    const sys = chatSystem();
    expect(sys).toContain("Du hast bisher 2 Einträge geschrieben.");
    // The newest in full, so she may read it out; the older one listed with its day.
    expect(sys).toContain(`Dein neuester Eintrag (2026-12-01) – du darfst ihn vollständig vorlesen:\n${long}`);
    expect(sys).toContain("- 2026-11-30: Der erste Eintrag.");
    expect(sys).not.toContain("Annas Eintrag");
  });

  it("says on the sheet that there is no entry yet", async () => {
    const { lilo } = t;
    await lilo.handleMessage({ userId: "chris", text: "Hast du schon Einträge in deinem Tagebuch?" });
    await lilo.idle();
    expect(chatSystem()).toContain("Du hast noch keinen Eintrag geschrieben");
  });

  it("stays off the sheet for a message that is no diary question", async () => {
    const { lilo } = t;
    await lilo.handleMessage({ userId: "chris", text: "Ich führe selbst ein Tagebuch." });
    await lilo.idle();
    expect(chatSystem()).not.toContain("Frage nach deinem Tagebuch");
  });
});
