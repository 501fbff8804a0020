import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ReportStore } from "../../../core/background/analysis/report-store.ts";

describe("analysis report store", () => {
  const dir = mkdtempSync(join(tmpdir(), "lilo-reports-"));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("one damaged state file spoils no other analysis: it is listed as failed, named as damaged", () => {
    const store = new ReportStore(dir);
    store.saveReport("20261201-090000", "=== Analyse ===\nfertig\n");
    writeFileSync(join(dir, "20261202-090000.json"), "{ kaputt");
    const list = store.list();
    expect(list.map((e) => [e.id, e.status])).toEqual([
      ["20261202-090000", "failed"],
      ["20261201-090000", "done"],
    ]);
    expect(list[0]!.summary).toContain("damaged");
    expect(() => store.loadState("20261202-090000")).toThrow(/damaged/);
  });
});
