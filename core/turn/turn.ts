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
import type { ChatSearch } from "../recall/search.ts";
import type { ChatRecallDeps } from "../recall/sheet-recall.ts";
import type { IncomingMessage, TurnContext, TurnResult, TurnStep } from "./types.ts";
import { buildCheatSheet } from "./cheat-sheet.ts";
import { selectMemoryBlocks, type MemoryBlocks } from "./memory-blocks.ts";
import { personaPrompt } from "../prompts/persona.ts";
import { markerInstructions } from "../prompts/markers.ts";
import { parseMarkers, type Marker } from "../markers/parse.ts";
import { executeStoreMarkers } from "../markers/execute.ts";
import { resolveFetchMarkers } from "./follow-up.ts";
import { extractMemories } from "../memory/extract.ts";
import { rememberExtraction } from "../memory/remember.ts";
import { summarizeConversation } from "../memory/short-term-summary.ts";
import { formatLocal } from "../util/time.ts";
import { LiloError, ProviderError, describeError } from "../errors.ts";
import { TURN_TEXTS } from "../prompts/turn-texts.ts";
import { proactivePlaceholder } from "../prompts/greeting.ts";
import { historyTurns } from "./history.ts";
import { applyBudget, budgetInput, shortenText } from "./request-budget.ts";
import { normalizeText } from "../util/text.ts";
import type { Lookups } from "../web/lookups.ts";
import type { ToolCalling } from "../tools/tool-calling.ts";
import { completeWithTools } from "../tools/tool-loop.ts";
import { chatMarkerNames } from "../tools/chat-markers.ts";

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
  /** The same chat-log search with its meaning side, for the sheet's passages and [RECALL:]. */
  chatRecall: ChatRecallDeps;
  steps: TurnStep[];
  /** Web search, fetch_url and news for the lookup markers and tools. */
  lookups?: Lookups;
  /** Which chat models get native tool calls. */
  tools?: ToolCalling;
  db: { transaction<T>(fn: () => T): () => T };
}

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
  // Half an emoji or a NUL would be stored as invalid UTF-8 and refused by the platforms later.
  const text = normalizeText(msg.text).trim();
  if (!text) throw new LiloError("invalid-input", "An empty message cannot be answered");
  const now = deps.clock.now();
  const startModel = chatLabel(deps);
  const { userMessage, conversation } = deps.db.transaction(() => {
    const conv = deps.chatLog.conversationAt(msg.userId, now, deps.config.memory.conversationPauseMinutes, startModel);
    const stored = deps.chatLog.append({ userId: msg.userId, conversationId: conv.id, role: "user", text, createdAt: now.toISOString() });
    return { userMessage: stored, conversation: conv };
  })();
  if (conversation.isNew && conversation.previous) await summarizePrevious(deps, msg.userId, conversation.previous.id);
  // The reply to a greeting Lilo pushed on her own still opens the conversation (short-term memory, greeting step).
  return answer(deps, userMessage, conversation.isNew || deps.chatLog.opensConversation(conversation.id, userMessage.id));
}

/** Answers the user's newest message again after a failed model call, without storing it twice. */
export async function retryLast(deps: TurnDeps, userId: string): Promise<TurnResult | undefined> {
  const last = deps.chatLog.lastMessage(userId);
  if (!last || last.role !== "user") return undefined;
  // The first message of a conversation gets the short-term memory on its retry too.
  const opensConversation = deps.chatLog.opensConversation(last.conversationId, last.id);
  return answer(deps, last, opensConversation);
}

/**
 * The chat model a conversation starts with, or null when none is usable: the
 * message is stored anyway, and the turn reports the missing model as its error.
 */
function chatLabel(deps: TurnDeps): string | null {
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
export async function previewCheatSheet(deps: TurnDeps, msg: { userId: string; text: string }): Promise<{ request: ChatRequest; notes: MemoryHit[]; blocks: MemoryBlocks }> {
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
  let blocks: MemoryBlocks | undefined;
  // The same budget as a real turn, so the preview is what the model would receive.
  const { request } = applyBudget(await assemble(deps, ctx, (b) => (blocks = b)), deps.config.budget, deps.config.persona.language);
  return { request, notes: blocks!.notes.kept, blocks: blocks! };
}

async function answer(deps: TurnDeps, userMessage: ChatLogMessage, isNew: boolean): Promise<TurnResult> {
  const { config } = deps;
  // Stored whole, read shortened: an oversized message must not break this turn or the next ones.
  const input = budgetInput(userMessage.text, config.budget, config.persona.language);
  const ctx: TurnContext = {
    userId: userMessage.userId,
    text: input.text,
    userMessage,
    conversationId: userMessage.conversationId,
    isNewConversation: isNew,
    previousAnswer: deps.chatLog.previousAssistant(userMessage.conversationId, userMessage.id),
    now: deps.clock.now(),
    extras: [],
  };
  for (const step of deps.steps) {
    const early = await step.before?.(ctx);
    if (early) return early;
  }
  let model: ChatModel;
  let notes: MemoryHit[] = [];
  try {
    model = deps.models.forRole("chat");
    const budgeted = applyBudget(await assemble(deps, ctx, (b) => (notes = b.notes.kept)), config.budget, config.persona.language);
    if (budgeted.dropped) deps.logger.debug("older turns left off to stay within the request budget", { userId: ctx.userId, dropped: budgeted.dropped });
    if (budgeted.overBy > 0) deps.logger.warn("the cheat sheet alone is over the request budget", { userId: ctx.userId, overByTokens: budgeted.overBy });
    const request = { ...budgeted.request, maxTokens: config.modelCall.maxTokens };
    const reply = await completeWithTools({ ...deps, userName: userName(config, ctx.userId) }, ctx, model, request);
    const result = await finish(deps, ctx, model, request, normalizeText(reply.text), notes);
    return input.notice ? { ...result, text: `${result.text}\n\n${input.notice}` } : result;
  } catch (err) {
    deps.logger.error("chat turn failed", { userId: ctx.userId, error: describeError(err) });
    const retryable = err instanceof ProviderError ? err.retryable : false;
    const code = err instanceof LiloError ? err.code : "internal";
    const t = TURN_TEXTS[config.persona.language];
    return {
      ok: false,
      text: t.failed(describeError(err), retryable),
      userMessageId: userMessage.id,
      notesUsed: notes,
      error: { code, message: describeError(err), retryable },
    };
  }
}

/** Selects memories and builds the cheat sheet for this turn. */
async function assemble(deps: TurnDeps, ctx: TurnContext, report: (b: MemoryBlocks) => void): Promise<ChatRequest> {
  const { config } = deps;
  const m = config.memory;
  const shortTerm = ctx.isNewConversation ? deps.shortTerm.latest(ctx.userId)?.text : undefined;
  const blocks = await selectMemoryBlocks(
    { config, memory: deps.memory, profile: deps.profile, chatRecall: deps.chatRecall },
    { userId: ctx.userId, text: ctx.text, conversationId: ctx.conversationId, shortTermChars: shortTerm?.length ?? 0 },
  );
  report(blocks);
  const name = userName(config, ctx.userId);
  const persona = [
    personaPrompt({ name: config.persona.name, language: config.persona.language, userName: name }),
    markerInstructions(config.persona.language, chatMarkerNames(deps)),
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
    profile: blocks.profile.kept,
    shortTerm,
    important: blocks.important.kept,
    notes: blocks.notes.kept,
    passages: blocks.passages.kept,
    thoughts: blocks.thoughts.kept,
    extras: ctx.extras,
    recent,
    message: ctx.text,
  });
}

/** Markers out (fetch markers answered by one follow-up call), answer stored, background work queued. */
async function finish(deps: TurnDeps, ctx: TurnContext, model: ChatModel, request: ChatRequest, raw: string, notes: MemoryHit[]): Promise<TurnResult> {
  const resolved = await resolveFetchMarkers({ ...deps, userName: userName(deps.config, ctx.userId) }, ctx, model, request, parseMarkers(raw));
  const label = modelLabel(model);
  const effects = await storeMarkers(deps, ctx, resolved.storeMarkers);
  const shown = resolved.text || TURN_TEXTS[deps.config.persona.language].empty;
  const stored = deps.chatLog.append({
    userId: ctx.userId,
    conversationId: ctx.conversationId,
    role: "assistant",
    text: shown,
    model: label,
    mood: effects.mood ?? null,
    createdAt: deps.clock.now().toISOString(),
    recallAnswer: resolved.recall,
  });
  deps.background.run("extraction", () => extractAndRemember(deps, ctx, shown, stored.id));
  for (const step of deps.steps) {
    if (step.after) deps.background.run(step.name, () => step.after!(ctx, { text: shown, messageId: stored.id }));
  }
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

/** The one extraction call after the reply; a malformed answer is counted, never fatal. */
async function extractAndRemember(deps: TurnDeps, ctx: TurnContext, answerText: string, answerId: number): Promise<void> {
  const { config } = deps;
  const now = deps.clock.now().toISOString();
  const out = await extractMemories(
    deps.models.forRole("extraction"),
    {
      userName: userName(config, ctx.userId),
      assistantName: config.persona.name,
      language: config.persona.language,
      userText: ctx.text,
      // A huge answer is read shortened, like a huge message: the extraction call must fit the model too.
      assistantText: shortenText(answerText, config.budget.maxInputChars, config.persona.language),
      date: formatLocal(ctx.now, config.timezone, config.persona.language),
      knownUserTexts: deps.profile.list(ctx.userId).map((p) => p.text),
    },
    config.modelCall.maxTokens,
  );
  if (!out.ok) {
    deps.problems.record(ctx.userId, "extraction", "dropped", out.problem, now);
    deps.logger.warn("extraction answer unusable after one retry", { userId: ctx.userId, problem: out.problem });
    return;
  }
  if (out.retried) deps.problems.record(ctx.userId, "extraction", "retried", "first answer unusable", now);
  else if (out.repaired) deps.problems.record(ctx.userId, "extraction", "repaired", "JSON cut out of surrounding text", now);
  if (out.droppedFacts.length) deps.logger.info("facts not taken from the user's words were dropped", { facts: out.droppedFacts });
  await rememberExtraction(deps, out.extraction, { userId: ctx.userId, sourceMessageId: answerId, now });
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
