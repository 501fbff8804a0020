import { describe, expect, it } from "vitest";
import { drawnOn } from "../../../core/background/reflection/grounded-thought.ts";

// Which feed items a reflection thought drew on — they become its origin (a lookup with their URLs).
describe("drawnOn: the feed items a thought shares a distinctive word with", () => {
  const fixed = { questions: ["Was beschäftigt Christian gerade?"], ignore: ["Christian", "Lilo"] };
  const items = [
    "Bahnstreik legt den Fernverkehr lahm — Ab Mittwoch.",
    "Neues Sprachmodell — nicht groß, offen und klein.",
    "Wetter: Sturm über Hamburg beschäftigt Forscher",
  ];

  it.each([
    ["der Bahnstreik könnte ihn treffen", [0]],
    ["Die Bahnstreiks treffen Hamburg", [0, 2]],
    ["Er denkt in Systemen.", []],
    // Names, stop words and words of the fixed questions are no evidence.
    ["Christian beschäftigt sich nicht mit Lilo.", []],
  ] as const)("%s → %j", (text, expected) => {
    expect(drawnOn(text, items, fixed)).toEqual(expected);
  });

  it("draws on nothing without feed items", () => {
    expect(drawnOn("der Bahnstreik könnte ihn treffen", [], fixed)).toEqual([]);
  });
});
