import type { LiloConfig } from "../config.ts";
import type { Clock } from "../ports/clock.ts";
import type { Logger } from "../ports/logger.ts";
import { modelLabel, type ChatModel, type ChatRequest } from "../ports/chat-model.ts";
import type { Memory, MemoryHit } from "../memory/memory.ts";
import type { ChatLog, ChatLogMessage } from "../store/chat-log.ts";
import type { ProfileStore } from "../store/profile.ts";
import type { ShortTermStore } from "../store/short-term.ts";
import type { RulesStore } from "../store/rules.ts";
import type { ModelProblems } from "../store/model-problems.ts";
import type { TopicsStore } from "../store/topics.ts";
import type { SuggestionsStore } from "../store/suggestions.ts";
import type { ModelRegistry } from "../models/registry.ts";
import type { BackgroundTasks } from "../util/background.ts";
import type { DurableJobs } from "../util/durable-jobs.ts";
import type { Db } from "../store/db.ts";
import type { InboxStore } from "../store/inbox.ts";
import type { JobsStore } from "../store/jobs.ts";
import { receiveMessage } from "./receive.ts";
import { recordAnswer } from "./after-reply.ts";
import type { ChatSearch } from "../recall/search.ts";
import type { IncomingMessage, TurnContext, TurnResult, TurnStep } from "./types.ts";
import { buildCheatSheet } from "./cheat-sheet.ts";
import { personaPrompt } from "../prompts/persona.ts";
import { markerInstructions } from "../prompts/markers.ts";
import { parseMarkers, type Marker } from "../markers/parse.ts";
import { executeStoreMarkers, CHAT_MARKERS } from "../markers/execute.ts";
import { resolveFetchMarkers } from "./follow-up.ts";
import { summarizeConversation } from "../memory/short-term-summary.ts";
import { formatLocal } from "../util/time.ts";
import { LiloError, ProviderError, describeError } from "../errors.ts";
import { TURN_TEXTS } from "../prompts/turn-texts.ts";
import { proactivePlaceholder } from "../prompts/greeting.ts";
import { historyTurns } from "./history.ts";

/** Everything a chat turn needs; wired once in createLilo. */
export interface TurnDeps {
  config: LiloConfig;
  clock: Clock;
  logger: Logger;
  chatLog: ChatLog;
  memory: Memory;
  profile: ProfileStore;
  shortTerm: ShortTermStore;
  rules: RulesStore;
  problems: ModelProblems;
  topics: TopicsStore;
  suggestions: SuggestionsStore;
  models: ModelRegistry;
  background: BackgroundTasks;
  /** The chat log searched by [RECALL:]. */
  recall: ChatSearch;
  steps: TurnStep[];
  db: Db;
  /** User messages as an inbox (reply state) and answers' delivery state. */
  inbox: InboxStore;
  jobs: JobsStore;
  /** Runs the after-reply jobs recorded with each answer. */
  durable: DurableJobs;
}

/** How often the model is asked before an empty or markers-only answer is reported. */
const EMPTY_ANSWER_TRIES = 2;

/** The name Lilo calls a user by. */
export function userName(config: LiloConfig, userId: string): string {
  return config.persona.userNames[userId] ?? "User";
}

/**
 * One chat turn (SPEC §4): store the message first, run the checks, build the
 * cheat sheet, call the model, execute and strip markers, store the answer,
 * then extract notes in the background.
 */
export async function handleMessage(deps: TurnDeps, msg: IncomingMessage): Promise<TurnResult> {
  const got = receiveMessage(deps, msg, chatLabel(deps));
  // A redelivered message whose turn finished (or runs) elsewhere: stored once, answered once.
  if (got.duplicate && got.replyState !== "pending") return { ok: true, duplicate: true, text: "", userMessageId: got.message.id, notesUsed: [] };
  return answerStored(deps, got.message);
}

/**
 * Answers a stored user message: summarises the previous conversation when
 * this message opens a new one (also the reply to a greeting Lilo pushed on
 * her own), then runs the turn.
 */
export async function answerStored(deps: TurnDeps, userMessage: ChatLogMessage): Promise<TurnResult> {
  const opens = deps.chatLog.opensConversation(userMessage.conversationId, userMessage.id);
  const previous = opens ? deps.inbox.previousConversation(userMessage.userId, userMessage.conversationId) : undefined;
  if (previous !== undefined) await summarizePrevious(deps, userMessage.userId, previous);
  return answer(deps, userMessage, opens);
}

/** Answers the user's newest message again after a failed model call or a failed delivery, without storing it twice. */
export async function retryLast(deps: TurnDeps, userId: string): Promise<TurnResult | undefined> {
  const last = deps.inbox.retryable(userId);
  if (!last) return undefined;
  // The first message of a conversation gets the short-term memory on its retry too.
  return answer(deps, last, deps.chatLog.opensConversation(last.conversationId, last.id));
}

/**
 * The chat model a conversation starts with, or null when none is usable: the
 * message is stored anyway, and the turn reports the missing model as its error.
 */
export function chatLabel(deps: Pick<TurnDeps, "models" | "logger">): string | null {
  try {
    const spec = deps.models.chatSpec();
    return `${spec.provider}:${spec.model}`;
  } catch (err) {
    deps.logger.debug("no chat model to record for the conversation", { error: describeError(err) });
    return null;
  }
}

/**
 * The cheat sheet Lilo would send for `text` now, without storing anything
 * or calling a model: for `lilo preview` and the benchmark.
 */
export async function previewCheatSheet(deps: TurnDeps, msg: { userId: string; text: string }): Promise<{ request: ChatRequest; notes: MemoryHit[] }> {
  const now = deps.clock.now();
  const last = deps.chatLog.latestConversation(msg.userId);
  const running = last && now.getTime() - Date.parse(last.lastMessageAt) <= deps.config.memory.conversationPauseMinutes * 60_000;
  const ctx: TurnContext = {
    userId: msg.userId,
    text: msg.text,
    userMessage: { id: Number.MAX_SAFE_INTEGER, userId: msg.userId, conversationId: running ? last.id : -1, role: "user", text: msg.text, model: null, mood: null, proactive: false, createdAt: now.toISOString() },
    conversationId: running ? last.id : -1,
    isNewConversation: !running,
    previousAnswer: undefined,
    now,
    extras: [],
  };
  let notes: MemoryHit[] = [];
  const request = await assemble(deps, ctx, (n) => (notes = n));
  return { request, notes };
}

async function answer(deps: TurnDeps, userMessage: ChatLogMessage, isNew: boolean): Promise<TurnResult> {
  const { config } = deps;
  const ctx: TurnContext = {
    userId: userMessage.userId,
    text: userMessage.text,
    userMessage,
    conversationId: userMessage.conversationId,
    isNewConversation: isNew,
    previousAnswer: deps.chatLog.previousAssistant(userMessage.conversationId, userMessage.id),
    now: deps.clock.now(),
    extras: [],
  };
  for (const step of deps.steps) {
    const early = await step.before?.(ctx);
    if (early) {
      // A step answered the turn itself (a yes/no, a diary question): the message is not waiting any more.
      deps.inbox.setReplyState(userMessage.id, early.ok ? "answered" : "failed", deps.clock.now().toISOString());
      return early;
    }
  }
  let model: ChatModel;
  let notes: MemoryHit[] = [];
  try {
    model = deps.models.forRole("chat");
    const request = { ...(await assemble(deps, ctx, (n) => (notes = n))), maxTokens: config.modelCall.maxTokens };
    // An empty or markers-only answer is not an answer: ask once more, then report it (the turn stays retryable).
    for (let attempt = 0; attempt < EMPTY_ANSWER_TRIES; attempt++) {
      const result = await finish(deps, ctx, model, request, (await model.complete(request)).text, notes);
      if (result) return result;
    }
    throw new LiloError("empty-answer", "the model answered with nothing to show");
  } catch (err) {
    deps.logger.error("chat turn failed", { userId: ctx.userId, error: describeError(err) });
    deps.inbox.setReplyState(userMessage.id, "failed", deps.clock.now().toISOString());
    const empty = err instanceof LiloError && err.code === "empty-answer";
    const retryable = empty || (err instanceof ProviderError ? err.retryable : false);
    const code = err instanceof LiloError ? err.code : "internal";
    const t = TURN_TEXTS[config.persona.language];
    return {
      ok: false,
      text: empty ? t.emptyAnswer : t.failed(describeError(err), retryable),
      userMessageId: userMessage.id,
      notesUsed: notes,
      error: { code, message: describeError(err), retryable },
    };
  }
}

/** Selects memories and builds the cheat sheet for this turn. */
async function assemble(deps: TurnDeps, ctx: TurnContext, reportNotes: (n: MemoryHit[]) => void): Promise<ChatRequest> {
  const { config, memory } = deps;
  const m = config.memory;
  const vector = await memory.embed(ctx.text);
  const [notes, thoughts] = await Promise.all([
    memory.searchVector(vector, { userId: ctx.userId, store: "notes", k: m.notesTopK, minScore: m.notesMinScore }),
    memory.searchVector(vector, { userId: ctx.userId, store: "thoughts", k: m.thoughtsTopK, minScore: m.thoughtsMinScore }),
  ]);
  reportNotes(notes);
  const name = userName(config, ctx.userId);
  const persona = [
    personaPrompt({ name: config.persona.name, language: config.persona.language, userName: name }),
    markerInstructions(config.persona.language, [...CHAT_MARKERS]),
  ].join("\n\n");
  const recent = historyTurns(
    deps.chatLog.recent(ctx.conversationId, m.recentMessages, ctx.userMessage.id),
    proactivePlaceholder(config.persona.language, config.persona.name),
  );
  return buildCheatSheet({
    language: config.persona.language,
    userName: name,
    timezone: config.timezone,
    persona,
    now: formatLocal(ctx.now, config.timezone, config.persona.language),
    rules: deps.rules.list(ctx.userId, true).map((r) => r.text),
    profile: deps.profile.list(ctx.userId),
    profileMaxChars: m.profileMaxChars,
    shortTerm: ctx.isNewConversation ? deps.shortTerm.latest(ctx.userId)?.text : undefined,
    notes,
    thoughts,
    extras: ctx.extras,
    recent,
    message: ctx.text,
  });
}

/**
 * Markers out (fetch markers answered by one follow-up call), then the answer
 * stored with its after-reply jobs (see recordAnswer). Undefined when nothing
 * is left to show: the caller asks again or reports it, nothing is stored.
 */
async function finish(deps: TurnDeps, ctx: TurnContext, model: ChatModel, request: ChatRequest, raw: string, notes: MemoryHit[]): Promise<TurnResult | undefined> {
  const resolved = await resolveFetchMarkers({ ...deps, userName: userName(deps.config, ctx.userId) }, ctx, model, request, parseMarkers(raw));
  const shown = resolved.text.trim();
  if (!shown) return undefined;
  const label = modelLabel(model);
  const effects = await storeMarkers(deps, ctx, resolved.storeMarkers);
  const stored = recordAnswer(deps, ctx, { text: shown, model: label, mood: effects.mood ?? null, recallAnswer: resolved.recall });
  return {
    ok: true,
    text: shown,
    userMessageId: ctx.userMessage.id,
    answerMessageId: stored.id,
    model: label,
    ...(effects.mood ? { mood: effects.mood } : {}),
    ...(ctx.question ? { question: ctx.question } : {}),
    notesUsed: notes,
  };
}

/**
 * Executes the store markers. The model has answered by now, so a failure
 * here (embedder, vector index) is logged and the answer still goes out and
 * is stored; otherwise the user would be told the model failed and a retry
 * would store the markers that did succeed a second time.
 */
async function storeMarkers(deps: TurnDeps, ctx: TurnContext, markers: Marker[]): Promise<{ mood?: string | undefined }> {
  try {
    return await executeStoreMarkers(deps, ctx, markers);
  } catch (err) {
    deps.logger.error("markers of the answer could not all be stored", { userId: ctx.userId, error: describeError(err) });
    return {};
  }
}

/** Writes the short-term memory of the conversation that just ended, once (also used when a pushed greeting starts a new one). */
export async function summarizePrevious(deps: Pick<TurnDeps, "config" | "clock" | "logger" | "chatLog" | "models" | "shortTerm">, userId: string, conversationId: number): Promise<void> {
  if (deps.shortTerm.hasSummary(conversationId)) return;
  try {
    const text = await summarizeConversation(deps, userId, conversationId);
    if (text) deps.shortTerm.add(userId, conversationId, text, deps.clock.now().toISOString());
  } catch (err) {
    // The new conversation still works without it; the next start tries again.
    deps.logger.warn("short-term summary failed", { userId, error: describeError(err) });
  }
}
