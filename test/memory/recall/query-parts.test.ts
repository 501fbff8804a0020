/**
 * Questions about two things (issue 23): taken apart without a model call,
 * each part searched on its own, so each brings its own evidence to the
 * sheet even when the other part's messages match more of the question.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fixedClock, sheetMessageIds } from "../../../core/index.ts";
import { questionParts } from "../../../core/memory/recall/query-parts.ts";
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

  it("leaves a question about one thing whole, and a long list too", () => {
    expect(questionParts("What did Caroline research?")).toEqual([]);
    expect(questionParts("Wie war das Konzert?")).toEqual([]);
    expect(questionParts("Who came: Anna, Ben, Carla, Dieter and Emil?")).toEqual([]);
  });

  it("drops words that are filters, not things (dates and time words)", () => {
    const searchable = new Set(["Melanie", "camping"]);
    expect(questionParts("When did Melanie go camping in June?", (w) => searchable.has(w))).toEqual([]);
  });
});

describe("a question about two things on the sheet", () => {
  it("brings each part's own evidence, though one part's messages match more of the question", async () => {
    t = makeTestLilo({ LILO_USER_NAMES: "chris=Christian", LILO_PASSAGES_TOP_K: "3" }, { clock });
    const day = (d: number) => `2026-10-${String(d).padStart(2, "0")}T09:00:00Z`;
    // Lisa's evidence sits among other talk about her (the search also reads each message's neighbours).
    const texts = [
      "On the weekend Tom painted the fence",
      "Tom painted his bike on the weekend",
      "On the weekend Tom painted his dog",
      "Tom painted the kitchen on the weekend",
      "Lisa called me, she is fine",
      "Lisa has a cold and stays at home",
      "Lisa paints watercolours of the harbour now",
      "Lisa started a new job at the library",
      "Lisa and I had lunch",
    ];
    const ids = t.lilo.recall.importChat(texts.map((text, i) => ({ userId: "chris", role: "user" as const, text, createdAt: day(i + 1) })));
    const lisaPaints = ids[6]!;
    // Premise: the question's words taken as one query (no thing named, nothing joined) favour Tom's messages (paint, weekend, Tom) over Lisa's (paint, Lisa).
    const whole = await t.lilo.recall.rank("paint weekend tom lisa", { userId: "chris", limit: 3 });
    expect(whole.map((m) => m.id)).not.toContain(lisaPaints);

    const p = await t.lilo.preview({ userId: "chris", text: "What did Tom and Lisa paint on the weekend?" });
    const onSheet = sheetMessageIds(p.blocks.passages.kept);
    expect(onSheet).toContain(lisaPaints);
    expect(onSheet.some((id) => texts[ids.indexOf(id)]!.includes("Tom painted"))).toBe(true);
    expect(p.request.system).toContain("Lisa paints watercolours of the harbour now");
  });
});
