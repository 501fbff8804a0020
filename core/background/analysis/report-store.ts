/**
 * Saved analyses (docs/spec.md §10): a finished report is a text file `<id>.txt` in
 * the analyses directory; a running or failed one is a JSON state file
 * `<id>.json` next to it, written after every finished part, so a restart
 * resumes from the finished parts. The state file goes once the report is saved.
 */
import { ensurePrivateDir, PRIVATE_FILE_MODE } from "../../foundation/util/file-modes.ts";
import { existsSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { AnalysisError, NotFoundError } from "../../foundation/errors.ts";

const stateBase = z.object({
  id: z.string(),
  createdAt: z.string(),
  analyst: z.string(),
  mode: z.enum(["blind", "blueprint"]),
  selection: z.string(),
  conversations: z.number(),
  chars: z.number(),
  system: z.string(),
  chunks: z.array(z.string()),
  partials: z.array(z.string().nullable()),
});

// A failed run says why; a running one has nothing to say.
const stateSchema = z.discriminatedUnion("status", [
  stateBase.extend({ status: z.literal("running") }),
  stateBase.extend({ status: z.literal("failed"), error: z.string() }),
]);

/** Everything a run needs to continue after a restart: running, or failed with the reason. */
export type AnalysisState = z.infer<typeof stateSchema>;

/** A state marked running again (a resume), without the earlier failure. */
export function runningState(state: AnalysisState): Extract<AnalysisState, { status: "running" }> {
  return { ...stateBase.parse(state), status: "running" };
}

/** One saved analysis in the list. */
export interface AnalysisListEntry {
  id: string;
  status: "done" | "running" | "failed";
  /** The report's first lines (done) or the progress (unfinished). */
  summary: string;
}

/** Files of the analyses directory. */
export class ReportStore {
  constructor(readonly dir: string) {}

  /** A new id from the local start time, unique in the directory. */
  newId(stamp: string): string {
    let id = stamp;
    for (let n = 2; existsSync(this.path(id, "txt")) || existsSync(this.path(id, "json")); n++) id = `${stamp}-${n}`;
    return id;
  }

  saveState(state: AnalysisState): void {
    this.writeAtomic(this.path(state.id, "json"), JSON.stringify(state));
  }

  /** The state of an unfinished analysis; NotFoundError when there is none. */
  loadState(id: string): AnalysisState {
    const file = this.path(id, "json");
    if (!existsSync(file))
      throw new NotFoundError(existsSync(this.path(id, "txt")) ? `analysis ${id} is finished; nothing to resume` : `no unfinished analysis ${id}`);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, "utf8"));
    } catch (err) {
      throw new AnalysisError(`the state file of analysis ${id} is damaged`, { cause: err });
    }
    const parsed = stateSchema.safeParse(raw);
    if (!parsed.success) throw new AnalysisError(`the state file of analysis ${id} is damaged`, { cause: parsed.error });
    return parsed.data;
  }

  /** Saves the finished report and removes the state file. */
  saveReport(id: string, text: string): string {
    const file = this.path(id, "txt");
    this.writeAtomic(file, text);
    rmSync(this.path(id, "json"), { force: true });
    return file;
  }

  /** The report text; NotFoundError when it does not exist (yet). */
  read(id: string): string {
    const file = this.path(id, "txt");
    if (!existsSync(file))
      throw new NotFoundError(existsSync(this.path(id, "json")) ? `analysis ${id} is not finished (lilo analysis resume ${id})` : `no analysis ${id}`);
    return readFileSync(file, "utf8");
  }

  /** Newest first: finished reports and unfinished runs. */
  list(): AnalysisListEntry[] {
    if (!existsSync(this.dir)) return [];
    const entries: AnalysisListEntry[] = [];
    for (const name of readdirSync(this.dir)) {
      const id = name.replace(/\.(txt|json)$/, "");
      if (name.endsWith(".txt")) entries.push({ id, status: "done", summary: reportSummary(readFileSync(join(this.dir, name), "utf8")) });
      else if (name.endsWith(".json") && !existsSync(this.path(id, "txt"))) {
        let s: AnalysisState;
        try {
          s = this.loadState(id);
        } catch (err) {
          // One damaged file must not hide the other analyses.
          entries.push({ id, status: "failed", summary: err instanceof Error ? err.message : String(err) });
          continue;
        }
        const done = s.partials.filter((p) => p !== null).length;
        entries.push({
          id,
          status: s.status,
          summary: `${s.analyst} | ${s.mode} | ${done}/${s.chunks.length} parts done${s.status === "failed" && s.error ? ` | ${s.error}` : ""}`,
        });
      }
    }
    return entries.sort((a, b) => b.id.localeCompare(a.id));
  }

  /** Deletes report and state; false when neither existed. */
  delete(id: string): boolean {
    let any = false;
    for (const ext of ["txt", "json"] as const) {
      const file = this.path(id, ext);
      if (existsSync(file)) {
        rmSync(file);
        any = true;
      }
    }
    return any;
  }

  private path(id: string, ext: "txt" | "json"): string {
    // Ids come from the command line: never let one leave the directory.
    if (!/^[\w-]+$/.test(id)) throw new NotFoundError(`no analysis ${id}`);
    return join(this.dir, `${id}.${ext}`);
  }

  private writeAtomic(file: string, text: string): void {
    ensurePrivateDir(this.dir);
    writeFileSync(`${file}.tmp`, text, { mode: PRIVATE_FILE_MODE });
    renameSync(`${file}.tmp`, file);
  }
}

/** Analyst, mode and size lines of a saved report, on one line. */
function reportSummary(text: string): string {
  const lines = text.split("\n").slice(1, 7);
  return lines
    .filter((l) => l.trim() && !l.startsWith("="))
    .map((l) => l.replace(/^[^:]+:\s*/, ""))
    .join(" | ");
}
