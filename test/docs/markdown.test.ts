import { describe, expect, it } from "vitest";
import { anchor, cell, code, prose, table } from "../../admin-cli/docs/markdown.ts";

describe("the Markdown of the generated pages", () => {
  it("escapes a `<` outside inline code, so it cannot open an HTML tag", () => {
    expect(prose("the id is telegram:<id>, see `a <b>`")).toBe("the id is telegram:\\<id>, see `a <b>`");
  });

  it("keeps a table cell on one line and its pipes inside it", () => {
    expect(cell("a | b\n  c")).toBe("a \\| b c");
  });

  it("fences inline code that holds a backtick with two", () => {
    expect(code("plain")).toBe("`plain`");
    expect(code("a `b` c")).toBe("``a `b` c``");
    expect(code("`b`")).toBe("`` `b` ``");
  });

  it("writes a pipe table with its divider", () => {
    expect(table(["A", "B"], [["1", "x|y"]])).toEqual(["| A | B |", "| --- | --- |", "| 1 | x\\|y |"]);
  });

  it("makes GitHub's anchor of a heading, numbering a repeated one", () => {
    const seen = new Map<string, number>();
    expect(anchor("Costs: the usage ledger (`lilo usage`, /usage)", seen)).toBe("costs-the-usage-ledger-lilo-usage-usage");
    expect(anchor("Lilo's own model", seen)).toBe("lilos-own-model");
    expect(anchor("Lilo's own model", seen)).toBe("lilos-own-model-1");
  });
});
