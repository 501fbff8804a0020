import { describe, expect, it } from "vitest";
import { MarkerStreamFilter } from "../../../core/conversation/markers/stream-filter.ts";
import { parseMarkers } from "../../../core/conversation/markers/parse.ts";
import { MARKERS } from "../../../core/conversation/markers/registry.ts";
import { answer, random, split } from "./stream-answers.ts";

/** What the stream shows, piece by piece: every visible text after each piece, and the end's rest. */
function stream(pieces: string[]): { shown: string[]; total: string } {
  const filter = new MarkerStreamFilter(MARKERS);
  const shown: string[] = [];
  let total = "";
  for (const p of pieces) {
    total += filter.push(p);
    shown.push(total);
  }
  total += filter.end().rest;
  return { shown, total };
}

/** A marker's opening as it could be read on screen: an opening bracket and the start of a known name. */
const MARKER_START = new RegExp(`[[(]\\s*(${MARKERS.spellings().join("|")})\\s*:`, "i");

describe("MarkerStreamFilter", () => {
  it("shows, for any split of any answer, exactly the text the non-streamed answer shows", () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const rnd = random(seed);
      const text = answer(rnd, rnd() < 0.5);
      const expected = parseMarkers(text, MARKERS).text;
      const { shown, total } = stream(split(rnd, text));
      expect({ seed, text, total }).toEqual({ seed, text, total: expected });
      const wrong = shown.find((s) => !expected.startsWith(s));
      if (wrong !== undefined) expect({ seed, shown: wrong }).toEqual({ seed, shown: "a prefix of the final text" });
    }
  });

  it("never shows a marker or the start of one while an answer without examples is being written", () => {
    for (let seed = 1; seed <= 1000; seed++) {
      const rnd = random(seed * 7919);
      const text = answer(rnd, false);
      const marker = stream(split(rnd, text)).shown.find((s) => MARKER_START.test(s));
      if (marker !== undefined) expect({ seed, shown: marker }).toEqual({ seed, shown: "text without a marker" });
    }
  });

  it("shows a marker split over many pieces never, and the words around it as they arrive", () => {
    const filter = new MarkerStreamFilter(MARKERS);
    const seen: string[] = [];
    for (const p of ["Das freut ", "mich! [IMPO", "RTANT: An", "na war beim Zahnarzt", "] Und ", "wie geht ", "es dir?"]) {
      filter.push(p);
      seen.push(filter.text);
    }
    expect(seen).toEqual([
      "Das freut",
      "Das freut mich!",
      "Das freut mich!",
      "Das freut mich!",
      "Das freut mich! Und",
      "Das freut mich! Und wie geht",
      "Das freut mich! Und wie geht es dir?",
    ]);
    expect(filter.end().parsed.markers).toEqual([{ name: "IMPORTANT", payload: "Anna war beim Zahnarzt", kind: "store" }]);
  });

  it("shows most of a long plain answer before its end", () => {
    const text = "Ein langer Satz über den Tag, den Zahnarzt und das Wetter. ".repeat(40);
    const pieces = split(random(42), text);
    const filter = new MarkerStreamFilter(MARKERS);
    pieces.slice(0, pieces.length / 2).forEach((p) => filter.push(p));
    expect(filter.text.length).toBeGreaterThan(text.length * 0.45);
  });

  it("names a fetch marker as soon as it is complete, so the caller knows a follow-up answer comes", () => {
    const filter = new MarkerStreamFilter(MARKERS);
    filter.push("Moment. [RECALL: Zahnarzt Termin] Ich");
    expect(filter.markers.map((m) => m.kind)).toEqual(["fetch"]);
  });
});
