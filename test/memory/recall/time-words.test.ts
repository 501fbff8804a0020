import { describe, expect, it } from "vitest";
import { parseTimeWords } from "../../../core/memory/recall/time-words.ts";
import { fixedClock } from "../../../core/foundation/ports/clock.ts";

const TZ = "Europe/Berlin";
// Wednesday 2 December 2026, 19:00 in Berlin (UTC+1): local days start at 23:00 UTC the evening before.
const clock = fixedClock("2026-12-02T18:00:00Z");
const parse = (q: string, c = clock) => parseTimeWords(q, c, TZ);

const TODAY = { from: "2026-12-01T23:00:00.000Z", to: "2026-12-02T23:00:00.000Z" };
const YESTERDAY = { from: "2026-11-30T23:00:00.000Z", to: "2026-12-01T23:00:00.000Z" };
const DAY_BEFORE = { from: "2026-11-29T23:00:00.000Z", to: "2026-11-30T23:00:00.000Z" };
const LAST_WEEK = { from: "2026-11-25T23:00:00.000Z", to: "2026-12-02T23:00:00.000Z" };
const MORNING = { fromHour: 0, toHour: 12 };
const NOON = { fromHour: 11, toHour: 15 };
const AFTERNOON = { fromHour: 12, toHour: 18 };
const EVENING = { fromHour: 17, toHour: 24 };

describe("parseTimeWords", () => {
  it.each([
    ["heute", TODAY],
    ["today", TODAY],
    ["gestern", YESTERDAY],
    ["yesterday", YESTERDAY],
    ["vorgestern", DAY_BEFORE],
    ["the day before yesterday", DAY_BEFORE],
    ["letzte Woche", LAST_WEEK],
    ["vergangene Woche", LAST_WEEK],
    ["in der letzten Woche", LAST_WEEK],
    ["last week", LAST_WEEK],
  ])("day word %j → local day range", (word, range) => {
    const r = parse(`Kino ${word}`);
    expect(r.filter).toEqual(range);
    expect(r.terms.filter((t) => !["in", "der"].includes(t))).toEqual(["Kino"]);
    expect(r.timeWords).toHaveLength(1);
  });

  it.each([
    ["morgens", MORNING],
    ["früh", MORNING],
    ["vormittags", MORNING],
    ["am Morgen", MORNING],
    ["am Vormittag", MORNING],
    ["morgen", MORNING], // morning, never tomorrow: a look back cannot see the future
    ["in the morning", MORNING],
    ["mittags", NOON],
    ["at noon", NOON],
    ["nachmittags", AFTERNOON],
    ["am Nachmittag", AFTERNOON],
    ["in the afternoon", AFTERNOON],
    ["abends", EVENING],
    ["am Abend", EVENING],
    ["Abend", EVENING],
    ["in the evening", EVENING],
  ])("day part %j alone → hours on every day", (word, part) => {
    const r = parse(`Film ${word}`);
    expect(r.filter).toEqual({ dayPart: part });
    expect(r.terms).toEqual(["Film"]);
  });

  it("combines a day word with a day part", () => {
    expect(parse("Kino gestern abends")).toEqual({ terms: ["Kino"], filter: { ...YESTERDAY, dayPart: EVENING }, timeWords: ["gestern", "abends"] });
    expect(parse("gestern am Abend Pizza").filter).toEqual({ ...YESTERDAY, dayPart: EVENING });
    expect(parse("heute früh Bahn").filter).toEqual({ ...TODAY, dayPart: MORNING });
    expect(parse("yesterday in the evening film").filter).toEqual({ ...YESTERDAY, dayPart: EVENING });
    expect(parse("tonight pizza").filter).toEqual({ ...TODAY, dayPart: EVENING });
    expect(parse("last night pizza").filter).toEqual({ ...YESTERDAY, dayPart: EVENING });
    expect(parse("this morning train").filter).toEqual({ ...TODAY, dayPart: MORNING });
  });

  it("widens the range for several day words", () => {
    expect(parse("gestern heute").filter).toEqual({ from: YESTERDAY.from, to: TODAY.to });
  });

  it("widens the hours for several day parts", () => {
    expect(parse("mittags nachmittags").filter).toEqual({ dayPart: { fromHour: 11, toHour: 18 } });
  });

  it("matches whole words only, ignoring case and diacritics", () => {
    expect(parse("GESTERN Kino").filter).toEqual(YESTERDAY);
    expect(parse("Fruh Kino").filter).toEqual({ dayPart: MORNING });
    expect(parse("FRÜH Kino").filter).toEqual({ dayPart: MORNING });
    for (const q of ["Frühstück", "Abendessen", "Morgenland", "heutige", "Gesterns", "Wochenende"]) {
      expect(parse(q)).toEqual({ terms: [q], filter: {}, timeWords: [] });
    }
  });

  it("keeps the other words as written, without punctuation", () => {
    expect(parse("Disclosure Day, gestern!").terms).toEqual(["Disclosure", "Day"]);
    expect(parse('"Kino" AND NEAR(').terms).toEqual(["Kino", "AND", "NEAR"]);
    expect(parse("").terms).toEqual([]);
  });

  it("computes DST-safe local day bounds", () => {
    // Sunday 29 March 2026 has 23 hours in Berlin, Sunday 25 October 25.
    expect(parse("gestern", fixedClock("2026-03-30T10:00:00Z")).filter).toEqual({ from: "2026-03-28T23:00:00.000Z", to: "2026-03-29T22:00:00.000Z" });
    expect(parse("gestern", fixedClock("2026-10-26T10:00:00Z")).filter).toEqual({ from: "2026-10-24T22:00:00.000Z", to: "2026-10-25T23:00:00.000Z" });
    expect(parse("letzte Woche", fixedClock("2026-03-30T10:00:00Z")).filter).toEqual({ from: "2026-03-23T23:00:00.000Z", to: "2026-03-30T22:00:00.000Z" });
  });

  it("takes today from the local day, not the UTC day", () => {
    // 23:30 UTC on 2 December is already 3 December in Berlin.
    expect(parse("heute", fixedClock("2026-12-02T23:30:00Z")).filter).toEqual({ from: "2026-12-02T23:00:00.000Z", to: "2026-12-03T23:00:00.000Z" });
  });
});
