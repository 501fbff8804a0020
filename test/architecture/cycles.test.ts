import { describe, expect, it } from "vitest";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT, importCycles, importGraph, tsFiles } from "./import-graph.ts";

/** Lilo's own source: the core, the outer layers and the entry files at the root (tests and benches are not part of it). */
function sourceFiles(): string[] {
  const rootFiles = readdirSync(ROOT)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".config.ts"))
    .map((f) => join(ROOT, f));
  return [...["core", "adapters", "jobs", "admin-cli"].flatMap((d) => tsFiles(join(ROOT, d))), ...rootFiles];
}

describe("architecture: no import circle among Lilo's source files", () => {
  it("finds none (type-only imports count: a circle of types is still a circle to read)", () => {
    const cycles = importCycles(importGraph(sourceFiles()));
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
