/**
 * The meaning side of the chat-log search embeds the question's meaningful
 * words on their own (issue 23): "When did Anna go to Rome?" searches by
 * the meaning of "Anna go Rome", which the turn that answers is close to,
 * while the whole question (scaffolding and all) is not. Real SQLite through
 * the public `recall.rank`; the test embedder decides what is close.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fixedClock } from "../../../core/index.ts";
import { meaningfulText } from "../../../core/memory/recall/keyword-query.ts";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";
import { basisVector, ControlledEmbedder } from "../../fakes/controlled-embedder.ts";

const clock = fixedClock("2026-12-02T18:00:00Z");
let t: TestLilo | undefined;

afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

/** The answer shares no word with the question; only its meaning is close to the question's words (not to the question). */
const cases = [
  { language: "en", question: "When did Anna go to Rome?", words: "Anna go Rome", answer: "The Colosseum at night was breathtaking" },
  { language: "de", question: "Wann war Anna in Rom?", words: "Anna Rom", answer: "Das Kolosseum bei Nacht war atemberaubend" },
] as const;

async function ranked(c: (typeof cases)[number], meaningfulQuery: boolean): Promise<{ answer: number; ids: number[] }> {
  const embedder = new ControlledEmbedder(64).set(c.words, basisVector(64, 0)).set(c.answer, basisVector(64, 0));
  t = makeTestLilo({ LILO_LANGUAGE: c.language }, { clock, embedder, tuning: { chatFusion: { meaningfulQuery } } });
  const [answer] = t.lilo.recall.importChat(
    [c.answer, "The train was late again", "Der Zug hatte Verspätung"].map((text, d) => ({
      userId: "chris",
      role: "user" as const,
      text,
      createdAt: `2026-10-0${d + 1}T09:00:00Z`,
    })),
  );
  await t.lilo.recall.indexMessages("chris");
  const ids = (await t.lilo.recall.rank(c.question, { userId: "chris", limit: 3 })).map((m) => m.id);
  return { answer: answer!, ids };
}

describe("the meaning side's query", () => {
  for (const c of cases) {
    it(`finds by the meaning of the question's words what shares none of them (${c.language})`, async () => {
      const r = await ranked(c, true);
      expect(r.ids[0]).toBe(r.answer);
    });

    it(`does not find it with the whole question's vector, the step off (${c.language})`, async () => {
      const r = await ranked(c, false);
      expect(r.ids).not.toContain(r.answer);
    });
  }

  it("keeps the meaningful words as written, in order", () => {
    expect(meaningfulText(["When", "did", "Anna", "go", "to", "Rome?"])).toBe("Anna go Rome");
    expect(meaningfulText(["Was", "hat", "Tom", "über", "den", "Garten", "gesagt?"])).toBe("Tom Garten gesagt");
    expect(meaningfulText(["was", "ist", "das"])).toBeUndefined();
  });
});
