import { describe, expect, it } from "vitest";
import { MOODS, normalizeMood } from "../../../core/conversation/markers/emotion.ts";

describe("moods", () => {
  it("has the eight canonical ids in order", () => {
    expect(MOODS).toEqual(["freude", "nachdenklich", "neutral", "traurig", "neugierig", "besorgt", "verspielt", "liebevoll"]);
  });

  it("maps canonical ids to themselves, case-insensitively", () => {
    for (const m of MOODS) {
      expect(normalizeMood(m)).toBe(m);
      expect(normalizeMood(` ${m.toUpperCase()} `)).toBe(m);
    }
  });

  it.each([
    ["froh", "freude"],
    ["happy", "freude"],
    ["Glücklich", "freude"],
    ["gluecklich", "freude"],
    ["fröhlich", "freude"],
    ["joy", "freude"],
    ["thoughtful", "nachdenklich"],
    ["grübelnd", "nachdenklich"],
    ["sad", "traurig"],
    ["curious", "neugierig"],
    ["worried", "besorgt"],
    ["Sorge", "besorgt"],
    ["playful", "verspielt"],
    ["albern", "verspielt"],
    ["warm", "liebevoll"],
    ["zärtlich", "liebevoll"],
    ["loving", "liebevoll"],
    ["love", "liebevoll"],
    ["calm", "neutral"],
    ["ruhig", "neutral"],
    ["sehr froh 😊", "freude"],
    ["freude!", "freude"],
    ["„neugierig“", "neugierig"],
  ] as const)("%s → %s", (raw, mood) => {
    expect(normalizeMood(raw)).toBe(mood);
  });

  it("returns undefined for anything but a whole mood word", () => {
    expect(normalizeMood("sorgenfrei")).toBeUndefined();
    expect(normalizeMood("unfroh")).toBeUndefined();
    expect(normalizeMood("wütend")).toBeUndefined();
    expect(normalizeMood("")).toBeUndefined();
  });
});
