/**
 * Runs an analysis part by part (docs/spec.md §10): each part goes to the analyst
 * with "you see part i of n"; the state is saved after every finished part,
 * so a crash or restart loses at most the part in flight. Then one merge
 * call that sees only the partial reports (skipped with a single part,
 * whose answer already is the whole analysis), the quote check, the saved report.
 */
import type { LiloConfig } from "../../foundation/config/config.ts";
import type { Persona } from "../../conversation/persona/persona.ts";
import type { ChatModel } from "../../foundation/ports/chat-model.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import type { Sleep } from "../../foundation/util/retry.ts";
import { describeError } from "../../foundation/errors.ts";
import { chunkTask, mergeTask } from "../prompts/analysis.ts";
import { callAnalyst, type AnalystCallOptions } from "./call.ts";
import { verifyQuotes, type QuoteCheck } from "./quotes.ts";
import { formatReport, sizeLabel } from "./report-format.ts";
import { runningState, type AnalysisState, type ReportStore } from "./report-store.ts";

/** A finished analysis. */
export interface AnalysisResult {
  id: string;
  /** The analysis itself (the merge, or the single part's answer). */
  analysis: string;
  partials: string[];
  quotes: QuoteCheck[];
  /** Parts sent to the analyst in this run (a resume skips finished ones). */
  partsRun: number;
}

/** What a run needs. */
interface RunDeps {
  config: LiloConfig["analysis"];
  persona: Pick<Persona, "name" | "language">;
  store: ReportStore;
  logger: Logger;
  sleep?: Sleep | undefined;
  /** The local date and time for the report header. */
  now(): string;
}

/** Runs the unfinished parts of `state`, merges, checks quotes and saves the report. */
export async function runAnalysis(
  deps: RunDeps,
  previous: AnalysisState,
  model: ChatModel,
  onPart?: (done: number, total: number) => void,
): Promise<AnalysisResult> {
  const { config, store } = deps;
  const state = runningState(previous);
  const lang = deps.persona.language;
  const total = state.chunks.length;
  const call: AnalystCallOptions = { ...config, sleep: deps.sleep, logger: deps.logger };
  const ask = async (content: string): Promise<string> => {
    try {
      return (await callAnalyst(model, { system: state.system, messages: [{ role: "user", content }] }, call)).text.trim();
    } catch (err) {
      // Keep what is done: `lilo analysis resume <id>` continues from here.
      store.saveState({ ...state, status: "failed", error: describeError(err) });
      throw err;
    }
  };
  store.saveState(state);
  let partsRun = 0;
  const partials: string[] = [];
  for (let i = 0; i < total; i++) {
    let partial = state.partials[i] ?? null;
    if (partial === null) {
      partial = await ask(chunkTask(lang, i + 1, total, state.chunks[i]!));
      state.partials[i] = partial;
      partsRun++;
      store.saveState(state);
      onPart?.(state.partials.filter((p) => p !== null).length, total);
    }
    partials.push(partial);
  }
  const analysis = total === 1 ? partials[0]! : await ask(mergeTask(lang, partials));
  const quotes = verifyQuotes(total === 1 ? [analysis] : [analysis, ...partials], state.chunks.join("\n"));
  const header = {
    date: deps.now(),
    analyst: state.analyst,
    mode: state.mode,
    selection: state.selection,
    size: sizeLabel(state.conversations, state.chars, total),
  };
  store.saveReport(state.id, formatReport(lang, deps.persona.name, header, analysis, quotes, partials));
  return { id: state.id, analysis, partials, quotes, partsRun };
}
