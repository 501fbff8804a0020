import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renderEnvExample } from "../../../core/foundation/config/env-example.ts";
import { configTable } from "../../../core/foundation/config/table.ts";
import { ADAPTER_SECTIONS } from "../../../adapters/config.ts";

describe(".env.example", () => {
  const committed = readFileSync(new URL("../../../.env.example", import.meta.url), "utf8");

  it("is the file generated from the configuration table (run `npm run config:example` after changing core/foundation/config/schema.ts)", () => {
    expect(committed).toBe(renderEnvExample(ADAPTER_SECTIONS));
  });

  it("names every variable once, with its default", () => {
    for (const leaf of configTable(ADAPTER_SECTIONS).leaves) {
      const lines = committed.split("\n").filter((l) => l.startsWith(`# ${leaf.env}=`));
      expect(lines, leaf.env).toHaveLength(1);
    }
    expect(committed).toContain("# LILO_NOTES_TOP_K=5");
    expect(committed).toContain("# LILO_DIARY_TIME=23:45");
    expect(committed).toContain("# LILO_ANALYSIS_RETRY_TOKENS=32000,64000");
  });
});
