/**
 * Saved analyses of an earlier Lilo, which kept them as plain files in the
 * analyses folder (LILO_ANALYSIS_DIR): `<id>.txt` reports and `<id>.json`
 * run states, which hold the transcript parts. They are moved into the
 * database once: written there first, all in one transaction, and only then
 * are the files removed. A crash in between leaves them in both places; the
 * next move writes the same rows again and removes the files, so nothing is
 * lost and nothing is doubled.
 */
import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { AnalysesStore, AnalysisRow } from "../../foundation/store/analyses.ts";
import { AnalysisError } from "../../foundation/errors.ts";

/** A report or state file of an earlier Lilo, and the half-written copy (`.tmp`) a crash may have left of one. */
const SAVED = /^([\w-]+)\.(txt|json)$/;
const HALF_WRITTEN = /^[\w-]+\.(txt|json)\.tmp$/;

/** Whether `dir` holds files of saved analyses still to be moved into the database. */
export function hasAnalysisFiles(dir: string): boolean {
  return existsSync(dir) && readdirSync(dir).some((name) => SAVED.test(name) || HALF_WRITTEN.test(name));
}

/**
 * Moves the saved analyses in `dir` into `rows` and removes their files (and
 * the folder, once nothing else is in it). `beforeRemoval` runs after the rows
 * are committed, before the first file goes. Returns how many analyses moved.
 */
export function moveAnalysisFiles(dir: string, rows: AnalysesStore, now: string, beforeRemoval: () => void = () => {}): number {
  if (!hasAnalysisFiles(dir)) return 0;
  const names = readdirSync(dir);
  const files = new Map<string, { txt?: string; json?: string }>();
  for (const name of names) {
    const m = SAVED.exec(name);
    if (m) files.set(m[1]!, { ...files.get(m[1]!), [m[2]!]: name });
  }
  const moved: AnalysisRow[] = [];
  for (const [id, f] of files) {
    // A report makes its run's state obsolete: the state file left beside one is the remnant of a crash.
    const report = f.txt === undefined ? null : read(join(dir, f.txt));
    const state = report === null && f.json !== undefined ? read(join(dir, f.json)) : null;
    if (report !== null || state !== null) moved.push({ id, state, report });
  }
  rows.saveAll(moved, now);
  beforeRemoval();
  for (const name of names) if (SAVED.test(name) || HALF_WRITTEN.test(name)) rmSync(join(dir, name), { force: true });
  if (readdirSync(dir).length === 0) rmSync(dir, { recursive: true, force: true });
  return moved.length;
}

/** A file's text; null when another process moved it in (and removed it) meanwhile. */
function read(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new AnalysisError(`cannot read the saved analysis ${file} to move it into the database`, { cause: err });
  }
}
