import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { basisVector, vectorWithCosine } from "../../fakes/controlled-embedder.ts";
import { makeTestLilo, isExtraction, NO_EXTRACTION, fakeAnthropicEnv, type TestLilo } from "../../helpers/test-lilo.ts";
import { fixedClock } from "../../../core/index.ts";
import { JUDGE_PROMPT_MARK } from "../../../core/conversation/prompts/correction.ts";

// "About whom", end to end in German and English: the extraction records whom a fact is about, the
// sheet groups it under that person, and "Nein, ich habe keinen Hund" never reaches (or touches) Anna's dog.
const CASES = [
  {
    language: "de",
    told: "Meine Schwester Anna hat einen Hund. Ich habe eine Katze.",
    // German: the model names no subject; it is read from the text.
    facts: ["Christians Schwester Anna hat einen Hund", "Christian hat eine Katze"],
    anna: "Christians Schwester Anna hat einen Hund",
    mine: "Christian hat eine Katze",
    ask: "Wie geht es den Tieren?",
    group: "Erinnerungen über Anna (eine andere Person",
    denial: "Nein, ich habe keinen Hund",
  },
  {
    language: "en",
    told: "My sister Anna has a dog. I have a cat.",
    // English: the model names the subject itself.
    facts: [
      { text: "Christian's sister Anna has a dog", about: "Anna" },
      { text: "Christian has a cat", about: "user" },
    ],
    anna: "Christian's sister Anna has a dog",
    mine: "Christian has a cat",
    ask: "How are the animals?",
    group: "Memories about Anna (another person",
    denial: "No, I don't have a dog",
  },
] as const;

describe("about whom", () => {
  let fake: FakeAnthropic;
  let t: TestLilo;
  afterEach(async () => {
    await t.cleanup();
    await fake.close();
  });

  it.each(CASES)("$language: the subject is recorded, the sheet groups by person, the judge never sees another person's note", async (c) => {
    fake = await startFakeAnthropic();
    fake.replyAlways((b) => {
      if (isExtraction(b.system))
        return String(b.messages.at(-1)?.content).includes(c.told) ? JSON.stringify({ ...JSON.parse(NO_EXTRACTION), facts: c.facts }) : NO_EXTRACTION;
      if (b.system?.includes(JUDGE_PROMPT_MARK)) return JSON.stringify({ verdicts: [] });
      return "Okay.";
    });
    t = makeTestLilo(fakeAnthropicEnv(fake, { LILO_LANGUAGE: c.language, LILO_USER_NAMES: "chris=Christian" }), {
      clock: fixedClock("2026-12-02T18:00:00Z"),
    });
    // Both notes are as near the denial as can be: only whom they are about tells them apart.
    const axis = basisVector(64, 0);
    t.embedder
      .set(c.denial, axis)
      .set(c.anna, vectorWithCosine(axis, 0.9, 3))
      .set(c.mine, vectorWithCosine(axis, 0.9, 4));
    await t.lilo.handleMessage({ userId: "chris", text: c.told });
    await t.lilo.idle();
    const notes = t.lilo.memory.list("chris");
    const anna = notes.find((n) => n.text === c.anna)!;
    expect(anna.extra.subject).toBe("Anna");
    expect(notes.find((n) => n.text === c.mine)!.extra.subject).toBe("user");

    t.embedder.set(c.ask, axis);
    await t.lilo.handleMessage({ userId: "chris", text: c.ask });
    const sheet = fake.requests.filter((b) => !isExtraction(b.system)).at(-1)!.system!;
    expect(sheet).toContain(`${c.group}`);
    expect(sheet.indexOf(c.anna)).toBeGreaterThan(sheet.indexOf(c.group));
    expect(sheet.indexOf(c.mine)).toBeLessThan(sheet.indexOf(c.group));

    await t.lilo.handleMessage({ userId: "chris", text: c.denial });
    await t.lilo.idle();
    const judge = fake.requests.filter((b) => b.system?.includes(JUDGE_PROMPT_MARK));
    expect(judge).toHaveLength(1);
    expect(judge[0]!.messages[0]!.content).toContain(c.mine);
    expect(judge[0]!.messages[0]!.content).not.toContain(c.anna);
    expect(t.lilo.memory.get("chris", "notes", anna.id)?.text).toBe(c.anna);
  });
});
