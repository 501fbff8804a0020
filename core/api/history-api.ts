import { createHash } from "node:crypto";
import type { Clock } from "../foundation/ports/clock.ts";
import type { HistoryImport, HistoryImports } from "../foundation/store/history-imports.ts";
import { LiloError, NotFoundError } from "../foundation/errors.ts";
import type { Forgetting } from "../memory/forgetting/forget-everywhere.ts";
import { planHistory, type HistoryPlan } from "../memory/history/history-plan.ts";
import type { HistoryFormat } from "../memory/history/history-types.ts";
import { readExport } from "../memory/history/read-export.ts";
import { chunkSizes } from "../memory/history/extraction-chunks.ts";
import { historySystemPrompt } from "../background/history/history-prompt.ts";
import { asksForFollowups } from "../background/history/history-followups.ts";
import { importRef, type HistoryExtraction, type HistoryExtractionOutcome, type HistoryExtractionProgress } from "../background/history/history-extraction.ts";

export type { HistoryPlan, PlannedSpeaker, SpeakerRole } from "../memory/history/history-plan.ts";
export type { HistoryImport } from "../foundation/store/history-imports.ts";
export type { HistoryExtractionOutcome, HistoryExtractionProgress } from "../background/history/history-extraction.ts";

/** What the background extraction of an import would cost, as the dry run shows it. */
export interface HistoryCostEstimate {
  /** Extraction calls: one a conversation, or a piece of a long one. */
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** "provider:model" of the extraction role, undefined when no model is configured. */
  model: string | undefined;
  /** In the price table's currency; undefined when the model has no price. */
  cost: number | undefined;
}
export { HISTORY_FORMATS, HISTORY_FILE_MAX_BYTES, HISTORY_MESSAGE_MAX_CHARS, type HistoryFormat } from "../memory/history/history-types.ts";

/** A plan with what the chat log already holds of it. */
export interface HistoryDryRun extends HistoryPlan {
  userId: string;
  /** Messages the chat log does not hold yet: what `apply` would add. */
  newMessages: number;
  /** The background extraction over the new messages. */
  estimate: HistoryCostEstimate;
}

/**
 * `lilo import-history`: a chat history a person already has (WhatsApp,
 * Telegram, ChatGPT, Claude) read, planned with who is who (a dry run that
 * writes nothing), written into the chat log in conversations of its own, and
 * undone through forget everywhere.
 */
export interface HistoryApi {
  /** Reads and plans a file; throws a sentence (`invalid-input`) for a file it cannot take whole. */
  plan(bytes: Uint8Array, o: { fileName: string; userId: string; format?: HistoryFormat | "auto" | undefined; me?: string | undefined }): HistoryDryRun;
  /** Writes the plan's new messages; refused while it is not known which speaker is the person. */
  apply(plan: HistoryDryRun): { id: number; added: number };
  /**
   * Runs the background extraction of every import not yet read to its end
   * (a killed run continues where it stopped); a spent budget pauses it.
   */
  extract(o?: { signal?: AbortSignal; onProgress?: (p: HistoryExtractionProgress) => void }): Promise<HistoryExtractionOutcome>;
  /** The extractions not finished yet, with their progress (`lilo status`). */
  extracting(userId?: string): HistoryExtractionProgress[];
  /** The user's imports, newest first. */
  list(userId: string): HistoryImport[];
  /** Forgets every message an import brought and every memory extracted from them (`apply: false` only counts them). */
  undo(userId: string, id: number, o: { apply: boolean }): Promise<{ import: HistoryImport; messages: number; memories: number }>;
}

/** What the history use cases need. */
export interface HistoryDeps {
  imports: HistoryImports;
  forgetting: Forgetting;
  clock: Clock;
  timeZone: string;
  pauseMinutes: number;
  /** The names Lilo knows each user by. */
  userNames: Record<string, string>;
  extraction: HistoryExtraction;
  /** The extraction role's model and its price for these tokens (undefined: no model or no price). */
  price(inputTokens: number, outputTokens: number): { model: string | undefined; cost: number | undefined };
  /** One extraction call reads at most this many characters of transcript. */
  maxInputChars: number;
  /** Conversations that ended at most this many days ago are also asked for follow-ups: a longer prompt. */
  followupRecentDays: number;
  assistantName: string;
  language: "de" | "en";
}

/** What an extraction answer is taken to cost in tokens, for the estimate: a short JSON object. */
const ANSWER_TOKENS = 150;
/** About four characters a token, as the usage ledger estimates. */
const CHARS_PER_TOKEN = 4;

/** The cost of extracting the plan's new messages. */
function estimate(d: HistoryDeps, plan: HistoryPlan, have: Set<string>, userId: string): HistoryCostEstimate {
  const rows = plan.planned.filter((r) => !have.has(r.key));
  const me = plan.me ?? "";
  const { calls, chars } = chunkSizes(rows, me, d.maxInputChars);
  const people = {
    userName: d.userNames[userId] ?? me,
    meName: me,
    others: plan.speakers.filter((s) => s.as !== "me").map((s) => ({ name: s.name, assistant: s.as === "assistant" })),
    assistantName: d.assistantName,
    language: d.language,
  };
  const system = historySystemPrompt(people).length;
  // A call never spans two conversations, so the recent conversations' calls are counted on their lines alone.
  const ends = new Map<number, string>();
  for (const r of rows) if (r.createdAt > (ends.get(r.conversation) ?? "")) ends.set(r.conversation, r.createdAt);
  const now = d.clock.now();
  const recent = rows.filter((r) => asksForFollowups(ends.get(r.conversation), now, { recentDays: d.followupRecentDays }));
  const recentCalls = recent.length ? chunkSizes(recent, me, d.maxInputChars).calls : 0;
  const longer = historySystemPrompt(people, { followups: true }).length - system;
  const inputTokens = Math.ceil((chars + calls * (system + 40) + recentCalls * longer) / CHARS_PER_TOKEN);
  const outputTokens = calls * ANSWER_TOKENS;
  return { calls, inputTokens, outputTokens, ...d.price(inputTokens, outputTokens) };
}

/** Builds the history import use cases. */
export function historyApi(d: HistoryDeps): HistoryApi {
  return {
    plan: (bytes, o) => {
      const x = readExport(bytes, { fileName: o.fileName, format: o.format, timeZone: d.timeZone, now: d.clock.now() });
      const fileHash = createHash("sha256").update(bytes).digest("hex");
      const known = d.userNames[o.userId];
      const plan = planHistory(x, { fileName: o.fileName, fileHash, me: o.me, knownNames: known ? [known] : [], pauseMinutes: d.pauseMinutes });
      const have = d.imports.knownKeys(
        o.userId,
        plan.planned.map((r) => r.key),
      );
      return { ...plan, userId: o.userId, newMessages: plan.planned.filter((r) => !have.has(r.key)).length, estimate: estimate(d, plan, have, o.userId) };
    },
    apply: (plan) => {
      if (plan.me === undefined)
        throw new LiloError("invalid-input", `which speaker are you? Say it with --me (${plan.speakers.map((s) => s.name).join(", ")})`);
      const now = d.clock.now().toISOString();
      const done = d.imports.write({
        userId: plan.userId,
        format: plan.format,
        fileName: plan.fileName,
        fileHash: plan.fileHash,
        me: plan.me,
        now,
        rows: plan.planned,
        // Their memories follow in the background, resumable: the job is written with the messages.
        within: (r) => void (r.added && d.extraction.queue(plan.userId, r.id)),
      });
      return done;
    },
    extract: (o) => d.extraction.run(o),
    extracting: (userId) => d.extraction.pending(userId),
    list: (userId) => d.imports.list(userId),
    undo: async (userId, id, o) => {
      const found = d.imports.get(userId, id);
      if (!found) throw new NotFoundError(`no import ${id} of ${userId} (lilo import-history list shows them)`);
      const ids = d.imports.messageIds(userId, id);
      const memories = d.imports.derived(userId, importRef(found.format, id));
      if (o.apply) {
        // The extraction stops first, so it writes nothing more from messages about to go.
        d.extraction.cancel(userId, id);
        const items = [
          ...ids.map((mid) => ({ kind: "messages" as const, id: mid, text: "", createdAt: "", match: "words" as const, action: "redact" as const })),
          ...memories.map((m) => ({ ...m, match: "words" as const, action: "remove" as const })),
        ];
        await d.forgetting.apply({ userId, words: [], items });
        d.imports.markUndone(userId, id, d.clock.now().toISOString());
      }
      return { import: found, messages: ids.length, memories: memories.length };
    },
  };
}
