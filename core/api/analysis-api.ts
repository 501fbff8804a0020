/**
 * The outside view (docs/spec.md §10, the seed's episode 7): a second model without
 * memory reads the transcripts and judges Lilo. Preview, transcript export,
 * run (part by part, then a merge), resume after a restart, saved reports,
 * and the editable questions.
 */
import type { LiloConfig } from "../foundation/config/config.ts";
import type { Persona } from "../conversation/persona/persona.ts";
import type { FeatureContext } from "../background/feature-context.ts";
import { modelLabel, type ChatModel } from "../foundation/ports/chat-model.ts";
import type { Db } from "../foundation/store/db.ts";
import type { SettingsStore } from "../foundation/store/settings.ts";
import type { ModelRegistry } from "../foundation/models/registry.ts";
import type { Sleep } from "../foundation/util/retry.ts";
import { analystInstruction, blueprintBlock, defaultQuestions } from "../background/prompts/analysis.ts";
import { markerInstructions } from "../conversation/prompts/markers.ts";
import type { MarkerRegistry } from "../conversation/markers/marker-registry.ts";
import { formatLocalShort, localParts } from "../foundation/util/time.ts";
import { selectConversations, type AnalysisSelection } from "../background/analysis/selection.ts";
import { renderConversation, transcriptText } from "../background/analysis/transcript.ts";
import { approxTokens, chunkTranscript } from "../background/analysis/chunks.ts";
import { ReportStore, type AnalysisListEntry, type AnalysisState } from "../background/analysis/report-store.ts";
import { selectionLabel } from "../background/analysis/report-format.ts";
import { runAnalysis, type AnalysisResult } from "../background/analysis/run.ts";
import { moveAnalysisFiles } from "../background/analysis/analysis-files.ts";
import type { AnalysesStore } from "../foundation/store/analyses.ts";
import { AnalysisError, ConfigError, describeError } from "../foundation/errors.ts";

export { AnalysisError } from "../foundation/errors.ts";
export type { AnalysisSelection } from "../background/analysis/selection.ts";
export type { AnalysisResult } from "../background/analysis/run.ts";
export type { QuoteCheck } from "../background/analysis/quotes.ts";

const QUESTIONS_SETTING = "analysis_questions";

/** A selection plus mode and analyst. */
export interface AnalysisOptions extends AnalysisSelection {
  /** With blueprint: Lilo's instruction goes along, and every finding says whether it explains it. */
  blueprint?: boolean | undefined;
  /** "provider:model" instead of the analysis role's model. */
  model?: string | undefined;
}

/** What a run would cost, before it runs. */
interface AnalysisPreview {
  conversations: number;
  chars: number;
  approxTokens: number;
  parts: number;
  calls: number;
  analyst: string;
  mode: "blind" | "blueprint";
  selection: string;
  /** Each conversation: start (local), title line, characters. */
  items: { header: string; chars: number }[];
}

/** The outside view's API on `lilo.analysis`. */
export interface AnalysisApi {
  preview(o: AnalysisOptions): AnalysisPreview;
  /** The transcript of the selection as plain text (the export). */
  transcript(o: AnalysisSelection): string;
  run(o: AnalysisOptions, onPart?: (done: number, total: number) => void): Promise<AnalysisResult>;
  /** Continues an unfinished run from its finished parts. */
  resume(id: string, o?: { model?: string | undefined }, onPart?: (done: number, total: number) => void): Promise<AnalysisResult>;
  list(): AnalysisListEntry[];
  show(id: string): string;
  delete(id: string): boolean;
  questions: { get(): { text: string; isDefault: boolean }; set(text: string): void; reset(): void };
}

/** The collaborators of the analysis; wired once in createLilo. */
interface AnalysisDeps {
  /** Read only: the chat log the transcripts come from. */
  db: Db;
  models: ModelRegistry;
  /** Keeps the edited questions. */
  settings: SettingsStore;
  /** Keeps the saved analyses: reports and the states of unfinished runs. */
  analyses: AnalysesStore;
  /** The configured user names (`persona.userNames`); a user without one is shown by id in transcripts. */
  userNames: Record<string, string>;
  /** Injectable so tests never wait between retries. */
  sleep?: Sleep | undefined;
  /** The markers the chat teaches, for the blueprint (the registry resolved in createLilo). */
  markers: MarkerRegistry;
}

/** The analysis's configuration slice (`config.analysis`). */
type AnalysisConfig = LiloConfig["analysis"];

/** The outside view from its collaborators, its configuration slice, the persona and the shared feature context. */
export function analysisApi(deps: AnalysisDeps, config: AnalysisConfig, persona: Persona, ctx: FeatureContext): AnalysisApi {
  const lang = persona.language;
  const name = persona.name;
  const store = new ReportStore(deps.analyses, ctx.clock);
  const moveOldFiles = oldFilesMover(config.dir, deps.analyses, ctx);
  const questions = () => deps.settings.get(QUESTIONS_SETTING) ?? defaultQuestions(lang, name);
  const analyst = (spec?: string): ChatModel => (spec ? deps.models.forSpec(spec) : deps.models.forRole("analysis"));

  const prepare = (o: AnalysisSelection) => {
    const conversations = selectConversations(deps.db, o, ctx.timeZone);
    const rendered = conversations.map((c) =>
      renderConversation(c, { language: lang, timeZone: ctx.timeZone, liloName: name, userNames: deps.userNames, maxMessageChars: config.maxMessageChars }),
    );
    const chunks = chunkTranscript(rendered, config.chunkChars);
    return { conversations, rendered, chunks, chars: chunks.reduce((n, c) => n + c.length, 0) };
  };

  const system = (o: AnalysisOptions, userId: string | undefined): string => {
    const parts = [analystInstruction(lang, name, questions())];
    if (o.blueprint) {
      // The instruction exactly as the chat turn sends it: persona, then the marker instructions.
      // Without a user (the selection spans several) the persona speaks to an unnamed user ("your friend").
      const lilo = [persona.chatPrompt(userId ?? ""), markerInstructions(lang, deps.markers.chatNames(), deps.markers)].join("\n\n");
      parts.push(blueprintBlock(lang, name, lilo));
    }
    return parts.join("\n\n");
  };

  const runDeps = () => ({ config, persona, store, logger: ctx.logger, sleep: deps.sleep, now: () => formatLocalShort(ctx.clock.now(), ctx.timeZone) });

  return {
    preview(o) {
      const p = prepare(o);
      return {
        conversations: p.conversations.length,
        chars: p.chars,
        approxTokens: approxTokens(p.chars),
        parts: p.chunks.length,
        calls: p.chunks.length > 1 ? p.chunks.length + 1 : p.chunks.length,
        analyst: analystLabel(() => analyst(o.model)),
        mode: o.blueprint ? "blueprint" : "blind",
        selection: selectionLabel(o),
        items: p.rendered.map((r) => ({ header: r.header, chars: [r.header, ...r.lines].join("\n").length })),
      };
    },
    transcript: (o) => transcriptText(prepare(o).rendered),
    async run(o, onPart) {
      moveOldFiles();
      const model = analyst(o.model);
      const p = prepare(o);
      if (p.chunks.length === 0) throw new AnalysisError("No conversation matches the selection: nothing to analyse.");
      const state: AnalysisState = {
        id: store.newId(idStamp(ctx.clock.now(), ctx.timeZone)),
        createdAt: ctx.clock.now().toISOString(),
        analyst: modelLabel(model),
        mode: o.blueprint ? "blueprint" : "blind",
        selection: selectionLabel(o),
        conversations: p.conversations.length,
        chars: p.chars,
        system: system(o, o.userId ?? p.conversations[0]?.userId),
        chunks: p.chunks,
        partials: p.chunks.map(() => null),
        status: "running",
      };
      store.saveState(state);
      return runAnalysis(runDeps(), state, model, onPart);
    },
    async resume(id, o = {}, onPart) {
      moveOldFiles();
      const state = store.loadState(id);
      const role = deps.models.forRole("analysis");
      const model = o.model ? analyst(o.model) : modelLabel(role) === state.analyst ? role : deps.models.forSpec(state.analyst);
      state.analyst = modelLabel(model);
      return runAnalysis(runDeps(), state, model, onPart);
    },
    list() {
      moveOldFiles();
      return store.list();
    },
    show(id) {
      moveOldFiles();
      return store.read(id);
    },
    delete(id) {
      moveOldFiles();
      return store.delete(id);
    },
    questions: {
      get: () => ({ text: questions(), isDefault: deps.settings.get(QUESTIONS_SETTING) === undefined }),
      set: (text) => {
        if (!text.trim()) throw new AnalysisError("The questions are empty; use reset for the defaults.");
        deps.settings.set(QUESTIONS_SETTING, text.trim(), ctx.clock.now().toISOString());
      },
      reset: () => deps.settings.delete(QUESTIONS_SETTING),
    },
  };
}

/**
 * Moves the plain files of an earlier Lilo's saved analyses into the database
 * (analysis-files.ts): once at the start, so they are not left readable on
 * disk; if that fails the start goes on with a warning, and every use of the
 * analyses tries again and stops with the error, so none is ever missing from
 * a list unnoticed.
 */
function oldFilesMover(dir: string, rows: AnalysesStore, ctx: FeatureContext): () => void {
  let done = false;
  const move = () => {
    if (done) return;
    const count = moveAnalysisFiles(dir, rows, ctx.clock.now().toISOString());
    done = true;
    if (count) ctx.logger.info("saved analyses moved into the database; their files are removed", { count });
  };
  try {
    move();
  } catch (err) {
    ctx.logger.warn("saved analyses could not be moved into the database; the next `lilo analysis` tries again", { error: describeError(err) });
  }
  return move;
}

/** The analyst's label; the preview still works when none is configured, and says why. */
function analystLabel(get: () => ChatModel): string {
  try {
    return modelLabel(get());
  } catch (err) {
    if (err instanceof ConfigError) return `not configured: ${err.message}`;
    throw err;
  }
}

/** "YYYYMMDD-HHMMSS" in local time: sortable, readable, safe as a file name. */
function idStamp(d: Date, timeZone: string): string {
  const p = localParts(d, timeZone);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${p.year}${two(p.month)}${two(p.day)}-${two(p.hour)}${two(p.minute)}${two(p.second)}`;
}
