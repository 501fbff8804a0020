import { describe, expect, it } from "vitest";
import { z } from "zod";
import { configSection, configTable } from "../../core/internal.ts";
import { opt, setting as s } from "../../core/foundation/config/rules.ts";
import { ADAPTER_SECTIONS } from "../../adapters/config.ts";
import { renderConfigurationPage } from "../../admin-cli/docs/configuration-page.ts";

const page = renderConfigurationPage(ADAPTER_SECTIONS);

/** The table row of one variable. */
const rowOf = (text: string, env: string) => text.split("\n").filter((l) => l.startsWith(`| \`${env}\` |`));

describe("docs/configuration.md, as generated", () => {
  it("gives every variable of the table, the adapters' included, exactly one row", () => {
    for (const leaf of configTable(ADAPTER_SECTIONS).leaves) expect(rowOf(page, leaf.env), leaf.env).toHaveLength(1);
  });

  it("says what every variable does", () => {
    const silent = configTable(ADAPTER_SECTIONS)
      .leaves.filter((l) => !l.doc.trim())
      .map((l) => l.env);
    expect(silent, "give these a `doc` in the configuration table").toEqual([]);
  });

  it("shows each variable's default in its own column", () => {
    expect(rowOf(page, "LILO_DIARY_TIME")[0]).toMatch(/^\| `LILO_DIARY_TIME` \| `23:45` \|/);
    expect(rowOf(page, "LILO_NOTES_TOP_K")[0]).toMatch(/^\| `LILO_NOTES_TOP_K` \| `5` \|/);
  });

  it("marks a live variable with the `lilo settings set` key that changes it", () => {
    expect(rowOf(page, "LILO_DIARY_TIME")[0]).toContain("**live**: `lilo settings set diary.time`");
  });

  it("marks a secret variable, showing only its example", () => {
    expect(rowOf(page, "ANTHROPIC_API_KEY")[0]).toBe("| `ANTHROPIC_API_KEY` |  | Claude; example: `sk-ant-...`; **secret** |");
  });

  it("puts a section's group after the core's groups, linked from the index", () => {
    const pager = configSection({
      key: "pager",
      groups: { pager: { title: "Pager" } },
      schema: z.object({ room: s(opt(), { env: "PAGER_ROOM", doc: "the room", group: "pager" }) }),
    });
    const text = renderConfigurationPage([pager]);
    expect(text.indexOf("## Pager")).toBeGreaterThan(text.indexOf("## Terminal chat"));
    expect(text).toContain("- [Pager](#pager)");
  });
});
