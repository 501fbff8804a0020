import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { ROOT, importCycles, importGraph, tsFiles } from "./import-graph.ts";

describe("architecture: no import circle among core/ files", () => {
  it("finds none (type-only imports count: a circle of types is still a circle to read)", () => {
    const cycles = importCycles(importGraph(tsFiles(join(ROOT, "core"))));
    expect(cycles.map((c) => c.join(" <-> "))).toEqual([]);
  });

  it("the finder reports every circle (two files, a long one, a self-import), nothing else", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["a", "c"]],
      ["c", ["d"]],
      ["d", ["e"]],
      ["e", ["c", "f"]],
      ["f", []],
      ["g", ["g"]],
      ["h", ["a", "outside"]],
    ]);
    expect(importCycles(graph)).toEqual([["a", "b"], ["c", "d", "e"], ["g"]]);
  });
});
