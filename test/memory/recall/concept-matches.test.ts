/**
 * A question about a category finds the messages naming its instances:
 * "What martial arts has John done?" — "I'm off to do some
 * taekwondo!", no word shared. Real SQLite and the bundled WordNet through
 * the public `recall.rank`; the test embedder keeps every text apart in
 * meaning, so only the concept step can bring the answer up.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fixedClock } from "../../../core/index.ts";
import { categoryPhrases, conceptMatch, DEFAULT_CONCEPT_STEP } from "../../../core/memory/recall/concept-matches.ts";
import type { Lexicon } from "../../../core/foundation/ports/lexicon.ts";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";
import { seedDailyMessages } from "../../helpers/seed-chat.ts";

const clock = fixedClock("2026-12-02T18:00:00Z");
let t: TestLilo | undefined;

afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

const seed = (lilo: TestLilo["lilo"], texts: string[]) => seedDailyMessages(lilo, "john", texts);

async function ranked(lilo: TestLilo["lilo"], question: string): Promise<number[]> {
  await lilo.recall.indexMessages("john");
  return (await lilo.recall.rank(question, { userId: "john", limit: 10 })).map((m) => m.id);
}

const ENGLISH = [
  "I'm off to do some taekwondo tonight!",
  "The arts festival downtown was crowded",
  "My sister called about the holidays",
  "Last year I took this pic in Spain",
  "The train was late again",
];

describe("the concept step", () => {
  it("ranks a message naming an instance of the question's category (English)", async () => {
    t = makeTestLilo({}, { clock });
    const [taekwondo, , , spain] = seed(t.lilo, ENGLISH);
    expect((await ranked(t.lilo, "What martial arts has John done?")).slice(0, 2)).toContain(taekwondo);
    expect((await ranked(t.lilo, "What European countries has John been to?")).slice(0, 2)).toContain(spain);
  });

  it("is gone with LILO_CONCEPT_LEXICON=off (the premise of the test above)", async () => {
    t = makeTestLilo({ LILO_CONCEPT_LEXICON: "off" }, { clock });
    const [taekwondo, , , spain] = seed(t.lilo, ENGLISH);
    expect(await ranked(t.lilo, "What martial arts has John done?")).not.toContain(taekwondo);
    expect(await ranked(t.lilo, "What European countries has John been to?")).not.toContain(spain);
  });

  it("is gone with the concepts signal's weight 0", async () => {
    t = makeTestLilo({}, { clock, tuning: { chatFusion: { concepts: 0 } } });
    const [taekwondo] = seed(t.lilo, ENGLISH);
    expect(await ranked(t.lilo, "What martial arts has John done?")).not.toContain(taekwondo);
  });

  it("leaves a German question's ranking as it was", async () => {
    const german = [
      "Heute Abend gehe ich zum Taekwondo!",
      "Welche Kampfsportarten gibt es in der Stadt?",
      "Der Zug hatte Verspätung",
      "Meine Schwester hat angerufen",
    ];
    const question = "Welche Kampfsportarten hat John gemacht?";
    t = makeTestLilo({ LILO_LANGUAGE: "de" }, { clock });
    seed(t.lilo, german);
    const on = await ranked(t.lilo, question);
    await t.cleanup();
    t = makeTestLilo({ LILO_LANGUAGE: "de", LILO_CONCEPT_LEXICON: "off" }, { clock });
    seed(t.lilo, german);
    expect(on).toEqual(await ranked(t.lilo, question));
    expect(on.length).toBeGreaterThan(0);
  });

  it("searches without the step while a lexicon cannot be loaded", async () => {
    t = makeTestLilo({ LILO_CONCEPT_LEXICON: "/nonexistent/wordnet" }, { clock });
    const [, arts] = seed(t.lilo, ENGLISH);
    expect(await ranked(t.lilo, "What martial arts has John done?")).toContain(arts);
  });

  it("logs once why a lexicon cannot be loaded", async () => {
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, error() {}, warn: (message: string) => void warnings.push(message) };
    t = makeTestLilo({ LILO_CONCEPT_LEXICON: "/nonexistent/wordnet" }, { clock, logger });
    seed(t.lilo, ENGLISH);
    await ranked(t.lilo, "What martial arts has John done?");
    await ranked(t.lilo, "What European countries has John been to?");
    expect(warnings.filter((w) => w.includes("concept lexicon not loaded"))).toHaveLength(1);
  });
});

describe("category phrases", () => {
  it("reads the category an English question lists, longest phrase first", () => {
    expect(categoryPhrases("What martial arts has John done?")).toEqual([["martial arts", "arts"]]);
    expect(categoryPhrases("Which cities has Jon visited?")).toEqual([["cities"]]);
    expect(categoryPhrases("What kind of art does Caroline make?")).toEqual([["art"]]);
    expect(categoryPhrases("What musical artists/bands has Melanie seen?")).toEqual([
      ["musical artists", "artists"],
      ["musical bands", "bands"],
    ]);
    expect(categoryPhrases("What events for veterans has John joined?")).toEqual([["events"]]);
  });

  it("reads nothing where no category is listed: one thing asked for, another form, German", () => {
    for (const q of ["What dish did Nate make?", "What does Melanie do to destress?", "When did Anna go to Rome?", "Welche Kampfsportarten hat John gemacht?"])
      expect(categoryPhrases(q), q).toEqual([]);
  });

  const words = new Map([["instruments", ["violin", "guitar", "instrument"]]]);
  const lexicon: Lexicon = { id: "test", load: () => Promise.resolve(), narrower: (p) => words.get(p) ?? [] };
  const step = { ...DEFAULT_CONCEPT_STEP, lexicon };

  it("matches the narrower words as whole words with their plurals, leaving out the question's own", () => {
    expect(conceptMatch(step, "What instruments does Melanie play?", ["instruments", "Melanie", "play"])).toBe(
      '"violin" OR "violins" OR "guitar" OR "guitars"',
    );
  });

  it("matches nothing while the lexicon is loading", () => {
    const loading: Lexicon = { ...lexicon, narrower: () => undefined };
    expect(conceptMatch({ ...step, lexicon: loading }, "What instruments does Melanie play?", ["instruments"])).toBeUndefined();
  });
});
