import { describe, expect, it } from "vitest";
import { fixedClock } from "../../../core/index.ts";
import { parseExplicitDates } from "../../../core/memory/recall/explicit-dates.ts";
import { parseRecall } from "../../../core/memory/recall/parse-recall.ts";
import { lightStem, ftsQuery } from "../../../core/memory/recall/keyword-query.ts";

const clock = fixedClock("2026-12-02T18:00:00Z");
const days = (text: string, tz = "UTC") => parseExplicitDates(text, clock, tz).map((r) => [r.from.slice(0, 10), r.to.slice(0, 10)]);

describe("explicit dates (German and English)", () => {
  it("reads a day with its year", () => {
    expect(days("October 13, 2023")).toEqual([["2023-10-13", "2023-10-14"]]);
    expect(days("the 7th of May 2023")).toEqual([["2023-05-07", "2023-05-08"]]);
  });

  it("reads a day without its year as the latest such day up to today", () => {
    expect(days("Was war am 3. Mai?")).toEqual([["2026-05-03", "2026-05-04"]]);
    expect(days("what happened on 13 October")).toEqual([["2026-10-13", "2026-10-14"]]);
    expect(days("am 24.12. war")).toEqual([["2025-12-24", "2025-12-25"]]); // not yet this year
  });

  it("reads a month as its days", () => {
    expect(days("im Oktober 2023")).toEqual([["2023-10-01", "2023-11-01"]]);
    expect(days("in May")).toEqual([["2026-05-01", "2026-06-01"]]);
  });

  it("reads the last season as its three months", () => {
    expect(days("last summer")).toEqual([["2026-06-01", "2026-09-01"]]);
    expect(days("letzten Winter")).toEqual([["2025-12-01", "2026-03-01"]]);
  });

  it("uses the local days of the time zone", () => {
    expect(parseExplicitDates("am 3. Mai", clock, "Europe/Berlin")[0]).toMatchObject({ from: "2026-05-02T22:00:00.000Z", to: "2026-05-03T22:00:00.000Z" });
  });

  it("leaves relative words to the time words", () => {
    expect(days("gestern und letzte Woche")).toEqual([]);
    const p = parseRecall("Kino gestern und am 3. Mai", clock, "UTC");
    expect(p.terms).toEqual(["Kino", "und", "am"]);
    expect(p.query.filter.from).toBe("2026-12-01T00:00:00.000Z");
    expect(p.dates).toHaveLength(1);
  });
});

describe("keyword queries", () => {
  it("strips light suffixes so inflected words still match", () => {
    expect(lightStem("painting")).toBe("paint");
    expect(lightStem("kinoabende")).toBe("kinoabend");
    expect(lightStem("ran")).toBe("ran");
    expect(ftsQuery(["Melanie painting sunrises"])).toBe('"melani"* OR "paint"* OR "sunris"*');
  });

  it("drops stop words", () => {
    expect(ftsQuery(["When did Melanie paint a sunrise?"])).toBe('"melani"* OR "paint"* OR "sunris"*');
  });
});
