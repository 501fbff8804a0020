/**
 * A "when" question is answered by the turn that says when: of
 * the turns sharing the question's words, the one with a time expression
 * ranks first. Real SQLite through the public `recall.rank`; the test
 * embedder keeps every text apart in meaning, so the words decide and only
 * this step can change the order.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fixedClock } from "../../../core/index.ts";
import { askedKind, datesSomething } from "../../../core/memory/recall/answer-cues.ts";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";

const clock = fixedClock("2026-12-02T18:00:00Z");
let t: TestLilo | undefined;

afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

/** Each text is a user message in a conversation of its own on its own day; returns the ids in order. */
function seed(lilo: TestLilo["lilo"], texts: string[]): number[] {
  return lilo.recall.importChat(
    texts.map((text, d) => ({ userId: "chris", role: "user" as const, text, createdAt: `2026-10-${String(d + 1).padStart(2, "0")}T09:00:00Z` })),
  );
}

const FILLER = ["The train was late again", "My sister called about the holidays", "Der Zug hatte Verspätung", "Meine Schwester hat angerufen"];

async function topTwo(lilo: TestLilo["lilo"], question: string): Promise<number[]> {
  return (await lilo.recall.rank(question, { userId: "chris", limit: 3 })).map((m) => m.id).slice(0, 2);
}

describe("a question asking when", () => {
  const english = ["The pottery class in town is great fun, the pottery teacher is patient", "I signed up for the pottery class last Friday", ...FILLER];
  const german = ["Der Töpferkurs macht Spaß, im Töpferkurs sind nette Leute", "Für den Töpferkurs habe ich mich vor zwei Wochen angemeldet", ...FILLER];

  it("ranks the turn that says when above one with more of its words (English)", async () => {
    t = makeTestLilo({}, { clock });
    const [more, dated] = seed(t.lilo, english);
    expect(await topTwo(t.lilo, "When did I start the pottery class?")).toEqual([dated, more]);
    // The same words without asking when: the words decide.
    expect(await topTwo(t.lilo, "What about the pottery class?")).toEqual([more, dated]);
  });

  it("leaves the word order alone when the step is off (the premise of the test above)", async () => {
    t = makeTestLilo({}, { clock, tuning: { chatFusion: { answerCues: 0 } } });
    const [more, dated] = seed(t.lilo, english);
    expect(await topTwo(t.lilo, "When did I start the pottery class?")).toEqual([more, dated]);
  });

  it("ranks the turn that says when above one with more of its words (German)", async () => {
    t = makeTestLilo({ LILO_LANGUAGE: "de" }, { clock });
    const [more, dated] = seed(t.lilo, german);
    expect(await topTwo(t.lilo, "Wann war das mit dem Töpferkurs?")).toEqual([dated, more]);
  });

  it("leaves the German word order alone when the step is off (the premise of the test above)", async () => {
    t = makeTestLilo({ LILO_LANGUAGE: "de" }, { clock, tuning: { chatFusion: { answerCues: 0 } } });
    const [more, dated] = seed(t.lilo, german);
    expect(await topTwo(t.lilo, "Wann war das mit dem Töpferkurs?")).toEqual([more, dated]);
  });
});

describe("answer cues", () => {
  it("reads when a question asks when, German and English", () => {
    for (const q of [
      "When did Anna go to Rome?",
      "What year was that?",
      "In which month did we meet?",
      "Wann war Tom beim Arzt?",
      "An welchem Tag war das?",
      "Wie lange ist das her?",
    ])
      expect(askedKind(q), q).toBe("time");
    for (const q of ["What did Anna paint?", "Where is Rome?", "Was hat Tom gesagt?", "Wannsee ist schön"]) expect(askedKind(q), q).toBeUndefined();
  });

  it("tells a turn that says when from one that does not", () => {
    for (const s of ["last Friday", "two weeks ago", "in 2019", "am 3.5. war das", "gestern Abend", "im Mai", "letzten Sommer"])
      expect(datesSomething(s), s).toBe(true);
    for (const s of ["I may go to the class", "Der Kurs macht Spaß", "the pottery teacher is patient"]) expect(datesSomething(s), s).toBe(false);
  });
});
