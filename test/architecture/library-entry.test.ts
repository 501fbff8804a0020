import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { ROOT } from "./import-graph.ts";

/** At most this many names, types included: what a program that embeds Lilo needs (docs/library.md). */
const MOST_NAMES = 60;

const INDEX = join(ROOT, "core", "index.ts");
const INTERNAL = join(ROOT, "core", "internal.ts");

/**
 * The names each entry exports, runtime values and types together, as the
 * TypeScript compiler sees them. The files behind the re-exports are not
 * read (`noResolve`): a re-export is named where it stands, and reading the
 * whole core would cost seconds for nothing (`export *`, the one form whose
 * names live behind it, is refused below).
 */
function exportedNames(): Map<string, string[]> {
  const program = ts.createProgram([INDEX, INTERNAL], { noResolve: true, noLib: true, types: [], allowImportingTsExtensions: true, noEmit: true });
  const checker = program.getTypeChecker();
  return new Map(
    [INDEX, INTERNAL].map((file) => {
      const source = program.getSourceFile(file);
      const module = source && checker.getSymbolAtLocation(source);
      if (!module) throw new Error(`${file} is not a module`);
      return [file, checker.getExportsOfModule(module).map((s) => s.name)];
    }),
  );
}

describe("architecture: the library's entry is narrow", () => {
  const names = exportedNames();

  it(`core/index.ts exports at most ${MOST_NAMES} names, types included`, () => {
    const index = names.get(INDEX)!;
    expect(index).toContain("createLilo");
    expect(index).toContain("LiloPorts");
    expect(index.length, index.join(" ")).toBeLessThanOrEqual(MOST_NAMES);
  });

  it("neither entry re-exports a whole module (`export *`)", () => {
    for (const file of [INDEX, INTERNAL]) expect(readFileSync(file, "utf8")).not.toMatch(/^\s*export\s+\*/m);
  });

  it("core/internal.ts hands out nothing core/index.ts already does", () => {
    const index = new Set(names.get(INDEX));
    expect(names.get(INTERNAL)!.filter((n) => index.has(n))).toEqual([]);
  });
});
