/**
 * Saved analyses (docs/spec.md §10), kept in the database: a running or
 * failed run has its state (written after every finished part, so a restart
 * resumes from the finished parts); a finished one has its report, which
 * replaces the state.
 */
import { z } from "zod";
import type { Clock } from "../../foundation/ports/clock.ts";
import type { AnalysesStore } from "../../foundation/store/analyses.ts";
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

/** Saved analyses in the database: reports and the states of unfinished runs. */
export class ReportStore {
  constructor(
    private readonly rows: AnalysesStore,
    private readonly clock: Clock,
  ) {}

  /** A new id from the local start time, unique among the saved analyses. */
  newId(stamp: string): string {
    let id = stamp;
    for (let n = 2; this.rows.has(id); n++) id = `${stamp}-${n}`;
    return id;
  }

  saveState(state: AnalysisState): void {
    this.rows.saveState(state.id, JSON.stringify(state), this.now());
  }

  /** The state of an unfinished analysis; NotFoundError when there is none. */
  loadState(id: string): AnalysisState {
    const row = this.rows.get(id);
    if (row?.report != null) throw new NotFoundError(`analysis ${id} is finished; nothing to resume`);
    if (row?.state == null) throw new NotFoundError(`no unfinished analysis ${id}`);
    return parseState(id, row.state);
  }

  /** Saves the finished report in place of the run's state. */
  saveReport(id: string, text: string): void {
    this.rows.saveReport(id, text, this.now());
  }

  /** The report text; NotFoundError when it does not exist (yet). */
  read(id: string): string {
    const row = this.rows.get(id);
    if (row?.report != null) return row.report;
    throw new NotFoundError(row ? `analysis ${id} is not finished (lilo analysis resume ${id})` : `no analysis ${id}`);
  }

  /** Newest first: finished reports and unfinished runs. */
  list(): AnalysisListEntry[] {
    const entries: AnalysisListEntry[] = [];
    for (const { id, state, report } of this.rows.all()) {
      if (report !== null) entries.push({ id, status: "done", summary: reportSummary(report) });
      else if (state !== null) {
        let s: AnalysisState;
        try {
          s = parseState(id, state);
        } catch (err) {
          // One damaged state must not hide the other analyses.
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
    return this.rows.delete(id);
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}

/** A stored state, checked; AnalysisError naming the analysis when it is damaged. */
function parseState(id: string, text: string): AnalysisState {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new AnalysisError(`the state of analysis ${id} is damaged`, { cause: err });
  }
  const parsed = stateSchema.safeParse(raw);
  if (!parsed.success) throw new AnalysisError(`the state of analysis ${id} is damaged`, { cause: parsed.error });
  return parsed.data;
}

/** Analyst, mode and size lines of a saved report, on one line. */
function reportSummary(text: string): string {
  const lines = text.split("\n").slice(1, 7);
  return lines
    .filter((l) => l.trim() && !l.startsWith("="))
    .map((l) => l.replace(/^[^:]+:\s*/, ""))
    .join(" | ");
}
