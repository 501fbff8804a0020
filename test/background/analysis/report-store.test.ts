import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixedClock } from "../../../core/index.ts";
import { ReportStore } from "../../../core/background/analysis/report-store.ts";
import { hasAnalysisFiles, moveAnalysisFiles } from "../../../core/background/analysis/analysis-files.ts";
import { AnalysesStore } from "../../../core/foundation/store/analyses.ts";
import { openDatabase, type Db } from "../../../core/foundation/store/db.ts";

const clock = fixedClock("2026-12-02T14:00:00Z");
const NOW = "2026-12-02T14:00:00.000Z";

/** A run state as an earlier Lilo wrote it to `<id>.json`. */
const stateText = (id: string, partials: (string | null)[]) =>
  JSON.stringify({
    id,
    createdAt: NOW,
    analyst: "anthropic:claude-analyst",
    mode: "blind",
    selection: "all time; all conversations",
    conversations: 2,
    chars: 40,
    system: "Du bist der Analyst.",
    chunks: partials.map((_, i) => `Teil ${i + 1}: Ich erzähle von meiner Schwester in Görlitz.`),
    partials,
    status: "running",
  });

describe("saved analyses in the database", () => {
  let dir: string;
  let db: Db;
  let rows: AnalysesStore;
  let store: ReportStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "lilo-reports-"));
    db = openDatabase(join(dir, "lilo.db"));
    rows = new AnalysesStore(db);
    store = new ReportStore(rows, clock);
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("one damaged state spoils no other analysis: it is listed as failed, named as damaged", () => {
    store.saveReport("20261201-090000", "=== Analyse ===\nfertig\n");
    rows.saveState("20261202-090000", "{ kaputt", NOW);
    const list = store.list();
    expect(list.map((e) => [e.id, e.status])).toEqual([
      ["20261202-090000", "failed"],
      ["20261201-090000", "done"],
    ]);
    expect(list[0]!.summary).toContain("damaged");
    expect(() => store.loadState("20261202-090000")).toThrow(/damaged/);
  });

  it("a saved report replaces the run's state, and a state written afterwards does not bring the run back", () => {
    const id = store.newId("20261202-150000");
    store.saveState(JSON.parse(stateText(id, [null])));
    expect(store.newId("20261202-150000")).toBe("20261202-150000-2");
    expect(() => store.read(id)).toThrow(/not finished \(lilo analysis resume 20261202-150000\)/);
    store.saveReport(id, "Lilo — Außenblick\nBericht");
    store.saveState(JSON.parse(stateText(id, ["spät"])));
    expect(rows.get(id)).toEqual({ id, state: null, report: "Lilo — Außenblick\nBericht" });
    expect(() => store.loadState(id)).toThrow(/finished; nothing to resume/);
    expect(() => store.read("20261202-160000")).toThrow(/^no analysis 20261202-160000$/);
    expect(store.delete(id)).toBe(true);
    expect(store.delete(id)).toBe(false);
  });

  it("moves an earlier Lilo's plain files in and removes them; a move cut short after the rows are written finishes on the next one", () => {
    const old = join(dir, "analyses");
    mkdirSync(old);
    writeFileSync(join(old, "20261101-100000.txt"), "Lilo — Außenblick\nDatum: 2026-11-01 10:00\nAnalyst: a:b\nModus: blind\n\nSchwester in Görlitz");
    // A state left beside its report by a crash between the two writes: the report wins.
    writeFileSync(join(old, "20261101-100000.json"), stateText("20261101-100000", [null]));
    writeFileSync(join(old, "20261102-100000.json"), stateText("20261102-100000", ["Teilbericht eins.", null]));
    writeFileSync(join(old, "20261103-100000.json"), "{ kaputt");
    writeFileSync(join(old, "20261104-100000.json.tmp"), "halb geschrieben: Schwester in Görlitz");
    writeFileSync(join(old, "notes.md"), "not an analysis");

    // The first move is killed after its rows are committed: the files are still there.
    expect(() =>
      moveAnalysisFiles(old, rows, NOW, () => {
        throw new Error("killed");
      }),
    ).toThrow("killed");
    expect(readdirSync(old)).toHaveLength(6);
    expect(hasAnalysisFiles(old)).toBe(true);

    expect(moveAnalysisFiles(old, rows, NOW)).toBe(3);
    expect(readdirSync(old)).toEqual(["notes.md"]);
    expect(hasAnalysisFiles(old)).toBe(false);
    expect(rows.all().map((r) => r.id)).toEqual(["20261101-100000", "20261102-100000", "20261103-100000"]);
    expect(store.read("20261101-100000")).toContain("Schwester in Görlitz");
    expect(store.loadState("20261102-100000").partials).toEqual(["Teilbericht eins.", null]);
    expect(store.list().map((e) => [e.id, e.status, e.summary])).toEqual([
      ["20261103-100000", "failed", "the state of analysis 20261103-100000 is damaged"],
      ["20261102-100000", "running", "anthropic:claude-analyst | blind | 1/2 parts done"],
      ["20261101-100000", "done", "2026-11-01 10:00 | a:b | blind | Schwester in Görlitz"],
    ]);

    // Nothing left to move; a folder that holds only analyses goes with them.
    expect(moveAnalysisFiles(old, rows, NOW)).toBe(0);
    writeFileSync(join(old, "20261105-100000.txt"), "Bericht");
    rmSync(join(old, "notes.md"));
    expect(moveAnalysisFiles(old, rows, NOW)).toBe(1);
    expect(existsSync(old)).toBe(false);
  });
});
