/**
 * The ablation table of `npm run bench:recall -- --ablate` (docs/recall.md):
 * one row per signal off, its change against the run with every signal on.
 */
import { describe, expect, it } from "vitest";
import { SIGNALS } from "../../../core/memory/recall/signals.ts";
import { ablationRuns, ablationTable, type AblationRun } from "./ablation.ts";
import type { Outcome } from "./metrics.ts";

/** One question whose evidence is ranked first or not at all, and is on the sheet or not. */
const outcome = (found: boolean): Outcome => ({ category: 4, evidence: ["D1:1"], ranked: found ? ["D1:1"] : ["D9:9"], ms: 0, sheet: found ? ["D1:1"] : [] });

describe("the ablation", () => {
  it("runs every signal on first, then each signal of the list off once", () => {
    expect(ablationRuns()).toEqual([undefined, ...SIGNALS.map((s) => s.name)]);
  });

  it("prints each signal's figures off and their change against all on", () => {
    const runs: AblationRun[] = ablationRuns().map((off) => {
      const found = off !== "words";
      return { off, ranked: [outcome(found), outcome(true)], onSheet: [outcome(found), outcome(true)] };
    });
    const lines = ablationTable(runs);
    expect(lines[2]).toBe("| none (all on) | | | 1.000 | | 1.000 | | 1.000 | |");
    expect(lines.find((l) => l.startsWith("| words |"))).toBe("| words | list | 3 | .500 | −.500 | .500 | −.500 | .500 | −.500 |");
    expect(lines.find((l) => l.startsWith("| meaning |"))).toBe("| meaning | list | 1 | 1.000 | 0 | 1.000 | 0 | 1.000 | 0 |");
    expect(lines).toHaveLength(3 + SIGNALS.length);
  });

  it("leaves the sheet columns empty for a ranking-only run", () => {
    const runs: AblationRun[] = ablationRuns().map((off) => ({ off, ranked: [outcome(true)], onSheet: [] }));
    expect(ablationTable(runs).find((l) => l.startsWith("| parts |"))).toBe("| parts | head | 1 | 1.000 | 0 | 1.000 | 0 | — | — |");
  });
});
