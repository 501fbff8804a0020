/**
 * Questions about two things: taken apart without a model call,
 * each part searched on its own, so each brings its own evidence to the
 * sheet even when the other part's messages match more of the question.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fixedClock } from "../../../core/index.ts";
import { sheetMessageIds } from "../../../core/conversation/turn/memory-blocks.ts";
import { questionParts } from "../../../core/memory/recall/query-parts.ts";
import { withPartQuota } from "../../../core/memory/recall/part-quota.ts";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";

const clock = fixedClock("2026-12-02T18:00:00Z");
let t: TestLilo | undefined;

afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

const things = (q: string) => questionParts(q).map((p) => p.thing);

describe("taking a question apart", () => {
  it("finds the people, places and joined things it names, German and English", () => {
    expect(questionParts("What have Caroline and Melanie both painted?")).toEqual([
      { thing: "Caroline", query: "Caroline both painted" },
      { thing: "Melanie", query: "Melanie both painted" },
    ]);
    expect(things("Was haben Anna und Tom im Urlaub gemacht?")).toEqual(["Anna", "Tom", "Urlaub"]);
    expect(things("Did we talk about New York or Berlin?")).toEqual(["New York", "Berlin"]);
    expect(things("What do I like more, coffee or tea?")).toEqual(["coffee", "tea"]);
    expect(things("Trinke ich lieber Kaffee oder Tee?")).toEqual(["Kaffee", "Tee"]);
  });

  it("leaves a question whole unless it names two to four things", () => {
    expect(questionParts("What did Caroline research?")).toEqual([]);
    expect(questionParts("Wie war das Konzert?")).toEqual([]);
    expect(questionParts("Who came: Anna, Ben, Carla, Dieter and Emil?")).toEqual([]);
  });

  it("drops words that are filters, not things (dates and time words)", () => {
    const searchable = new Set(["Melanie", "camping"]);
    expect(questionParts("When did Melanie go camping in June?", (w) => searchable.has(w))).toEqual([]);
  });
});

describe("a part's place at the head", () => {
  it("joins the head after the first hit only where the head lacks the part's best hit", () => {
    const main = [1, 2, 3, 4, 5];
    // Part A's best hit (3) is in the head: nothing moves. Part B's (9) is not: it comes second.
    expect(
      withPartQuota(
        main,
        [
          [3, 7],
          [9, 8],
        ],
        { quota: 1, window: 3 },
      ),
    ).toEqual([1, 9, 2, 3, 4, 5, 7, 8]);
    expect(withPartQuota(main, [[3], [2]], { quota: 1, window: 3 })).toEqual([1, 2, 3, 4, 5]);
    // Off: the parts only follow the whole ranking.
    expect(
      withPartQuota(
        main,
        [
          [3, 7],
          [9, 8],
        ],
        { quota: 0, window: 3 },
      ),
    ).toEqual([1, 2, 3, 4, 5, 7, 9, 8]);
  });
});

const day = (d: number) => `2026-10-${String(d).padStart(2, "0")}T09:00:00Z`;

/** One user's log on consecutive days; returns the ids in order. */
function seed(lilo: TestLilo["lilo"], texts: string[]): number[] {
  return lilo.recall.importChat(texts.map((text, i) => ({ userId: "chris", role: "user" as const, text, createdAt: day(i + 1) })));
}

/** The turns on the preview's sheet for the question. */
async function sheet(lilo: TestLilo["lilo"], text: string): Promise<number[]> {
  return sheetMessageIds((await lilo.preview({ userId: "chris", text })).blocks.passages.kept);
}

describe("a question about two things on the sheet", () => {
  // Twelve messages about Tom painting on the weekend match more of the question than Lisa's one about painting,
  // and Lisa's other messages make her name as common as his.
  const things = [
    "fence",
    "bike",
    "dog house",
    "kitchen",
    "garage door",
    "old chair",
    "garden shed",
    "front door",
    "mailbox",
    "bookshelf",
    "boat",
    "window frames",
  ];
  const dinge = [
    "den Zaun",
    "das Fahrrad",
    "die Hundehütte",
    "die Küche",
    "das Garagentor",
    "den alten Stuhl",
    "den Schuppen",
    "die Haustür",
    "den Briefkasten",
    "das Regal",
    "das Boot",
    "die Fensterrahmen",
  ];
  const english = [
    ...things.map((x) => `On the weekend Tom painted the ${x}`),
    ...things.map((x) => `Lisa asked me about the ${x}`),
    "Lisa paints watercolours of the harbour now",
  ];
  const german = [
    ...dinge.map((x) => `Am Wochenende hat Tom ${x} gemalt`),
    ...dinge.map((x) => `Lisa hat mich nach ${x} gefragt`),
    "Lisa hat Aquarelle vom Hafen gemalt",
  ];

  it("brings each part's own evidence, though one part's messages fill the head of the whole ranking (English)", async () => {
    t = makeTestLilo({ LILO_USER_NAMES: "chris=Christian", LILO_PASSAGES_TOP_K: "3" }, { clock });
    const ids = seed(t.lilo, english);
    const lisaPaints = ids.at(-1)!;
    // Premise: the question's words taken as one query (no thing named) keep Lisa's painting out of the first ten.
    const whole = await t.lilo.recall.rank("paint weekend tom lisa", { userId: "chris", limit: 10 });
    expect(whole.map((m) => m.id)).not.toContain(lisaPaints);

    const onSheet = await sheet(t.lilo, "What did Tom and Lisa paint on the weekend?");
    expect(onSheet).toContain(lisaPaints);
    expect(onSheet.some((id) => english[ids.indexOf(id)]!.includes("Tom painted"))).toBe(true);
  });

  it("leaves Lisa off the sheet with the step off (the premise of the test above)", async () => {
    t = makeTestLilo({ LILO_USER_NAMES: "chris=Christian", LILO_PASSAGES_TOP_K: "3" }, { clock, tuning: { chatFusion: { parts: 0 } } });
    const ids = seed(t.lilo, english);
    expect(await sheet(t.lilo, "What did Tom and Lisa paint on the weekend?")).not.toContain(ids.at(-1)!);
  });

  const frage = "Was haben Tom und Lisa am Wochenende gemalt?";
  const deutsch = { LILO_LANGUAGE: "de", LILO_USER_NAMES: "chris=Christian", LILO_PASSAGES_TOP_K: "3" };

  it("brings each part's own evidence in German", async () => {
    t = makeTestLilo(deutsch, { clock });
    const lisaMalt = seed(t.lilo, german).at(-1)!;
    expect(await sheet(t.lilo, frage)).toContain(lisaMalt);
  });

  it("leaves Lisa off the German sheet with the step off (the premise of the test above)", async () => {
    t = makeTestLilo(deutsch, { clock, tuning: { chatFusion: { parts: 0 } } });
    const lisaMalt = seed(t.lilo, german).at(-1)!;
    expect(await sheet(t.lilo, frage)).not.toContain(lisaMalt);
  });
});
