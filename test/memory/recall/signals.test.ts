/**
 * The chat-log search's list of named signals (core/memory/recall/signals.ts):
 * each has a name and a weight, and a weight of 0 turns it off. The two
 * filters end to end through the public `recall.rank` on real SQLite; the
 * test embedder keeps every text apart in meaning (but where a test puts
 * two texts together), so the words and the filters decide. The other
 * signals' user cases are in their own files (docs/recall.md names each).
 */
import { afterEach, describe, expect, it } from "vitest";
import { fixedClock } from "../../../core/index.ts";
import { DEFAULT_CHAT_FUSION, SIGNALS } from "../../../core/memory/recall/signals.ts";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";
import { basisVector, ControlledEmbedder } from "../../fakes/controlled-embedder.ts";

const clock = fixedClock("2026-12-02T18:00:00Z");
let t: TestLilo | undefined;

afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

/** Each [text, time] is a user message in a conversation of its own; returns the ids in order. */
function seed(lilo: TestLilo["lilo"], lines: [text: string, at: string][]): number[] {
  return lilo.recall.importChat(lines.map(([text, createdAt]) => ({ userId: "chris", role: "user" as const, text, createdAt })));
}

const ranked = async (lilo: TestLilo["lilo"], question: string) => (await lilo.recall.rank(question, { userId: "chris", limit: 10 })).map((m) => m.id);

describe("the list of signals", () => {
  it("names each signal once", () => {
    expect(new Set(SIGNALS.map((s) => s.name)).size).toBe(SIGNALS.length);
  });

  it("takes each signal's weight as its default", () => {
    for (const s of SIGNALS) expect(DEFAULT_CHAT_FUSION[s.name], s.name).toBe(s.weight);
  });

  it("gives every signal a weight, so a weight of 0 can turn it off", () => {
    for (const s of SIGNALS) expect(s.weight, s.name).toBeGreaterThan(0);
  });
});

/** The cinema twice: last month, with more of the question's words, and yesterday evening. */
const CINEMA: [string, string][] = [
  ["The cinema downtown was great, I love that cinema", "2026-11-10T19:00:00Z"],
  ["The cinema was alright", "2026-12-01T19:00:00Z"],
  ["My sister called about the holidays", "2026-11-15T10:00:00Z"],
];

describe("the time words signal", () => {
  it("keeps only the messages of the time a question names ('yesterday')", async () => {
    t = makeTestLilo({}, { clock });
    const [older, yesterday] = seed(t.lilo, CINEMA);
    const hits = await ranked(t.lilo, "What did I say about the cinema yesterday?");
    expect(hits).toEqual([yesterday]);
    expect(hits).not.toContain(older);
  });

  it("ranks the better match of another day first when off (the premise of the test above)", async () => {
    t = makeTestLilo({}, { clock, tuning: { chatFusion: { timeWords: 0 } } });
    const [older, yesterday] = seed(t.lilo, CINEMA);
    expect((await ranked(t.lilo, "What did I say about the cinema yesterday?")).slice(0, 2)).toEqual([older, yesterday]);
  });
});

describe("the dates signal", () => {
  it("keeps only the messages of a date a question names ('on 1 December')", async () => {
    t = makeTestLilo({}, { clock });
    const [, december] = seed(t.lilo, CINEMA);
    expect(await ranked(t.lilo, "What did I say about the cinema on 1 December?")).toEqual([december]);
  });

  it("ranks the better match of another day first when off (the premise of the test above)", async () => {
    t = makeTestLilo({}, { clock, tuning: { chatFusion: { dates: 0 } } });
    const [older, december] = seed(t.lilo, CINEMA);
    expect((await ranked(t.lilo, "What did I say about the cinema on 1 December?")).slice(0, 2)).toEqual([older, december]);
  });
});

describe("the meaning signal", () => {
  // A statement, not a question: the statement form has nothing to say, so meaning is the one signal that hears "movie" in "film".
  const said = "I finally watched another film";
  const earlier = "The movie with Anna was wonderful";
  const embedder = () => new ControlledEmbedder(64).set(said, basisVector(64, 0)).set(earlier, basisVector(64, 0));
  const lines: [string, string][] = [
    [earlier, "2026-11-10T19:00:00Z"],
    ["My sister called about the holidays", "2026-11-15T10:00:00Z"],
    ["Tonight the train was late again", "2026-11-20T10:00:00Z"],
  ];

  it("finds an earlier message that says the same in other words ('movie' for 'film')", async () => {
    t = makeTestLilo({}, { clock, embedder: embedder() });
    const [movie] = seed(t.lilo, lines);
    await t.lilo.recall.indexMessages("chris");
    expect(await ranked(t.lilo, said)).toContain(movie);
  });

  it("leaves it out when off (the premise of the test above: no word is shared)", async () => {
    t = makeTestLilo({}, { clock, embedder: embedder(), tuning: { chatFusion: { meaning: 0 } } });
    const [movie] = seed(t.lilo, lines);
    await t.lilo.recall.indexMessages("chris");
    expect(await ranked(t.lilo, said)).not.toContain(movie);
  });
});
