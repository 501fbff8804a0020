import { describe, expect, it } from "vitest";
import { markerInstructions as instructions } from "../../../core/conversation/prompts/markers.ts";
import { MARKERS } from "../../../core/conversation/markers/registry.ts";
import { MOODS } from "../../../core/conversation/markers/emotion.ts";

/** The prompt block as Lilo's own registry teaches it. */
const markerInstructions = (language: "de" | "en", available: readonly string[]) => instructions(language, available, MARKERS);

describe("markerInstructions", () => {
  it("describes only the available markers, each with an example", () => {
    const de = markerInstructions("de", ["RECALL", "EMOTION"]);
    expect(de).toContain("[RECALL: prägnante Suchbegriffe]");
    expect(de).toContain("[EMOTION:");
    expect(de).not.toContain("[SEARCH:");
    for (const m of MOODS) expect(de).toContain(m);
    const en = markerInstructions("en", ["VORSCHLAG"]);
    expect(en).toContain("[[SUGGESTION:"); // the English persona is taught the English name (read back as VORSCHLAG)
    expect(en).not.toContain("VORSCHLAG");
    expect(en).not.toContain("[RECALL:");
  });

  it("is empty when no marker is available", () => {
    expect(markerInstructions("en", [])).toBe("");
  });
});
