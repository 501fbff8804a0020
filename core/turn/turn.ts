import type { LiloConfig } from "../config.ts";
import type { Clock } from "../ports/clock.ts";
import type { Logger } from "../ports/logger.ts";
import { modelLabel, type ChatModel, type ChatRequest, type ImageInput } from "../ports/chat-model.ts";
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
import type { ChatRecallDeps } from "../recall/sheet-recall.ts";
import type { IncomingMessage, TurnContext, TurnResult, TurnStep } from "./types.ts";
import { buildCheatSheet } from "./cheat-sheet.ts";
import { selectMemoryBlocks, type MemoryBlocks } from "./memory-blocks.ts";
import { personaPrompt } from "../persona/persona-prompt.ts";
import { markerInstructions } from "../prompts/markers.ts";
import { parseMarkers, type Marker } from "../markers/parse.ts";
import { executeStoreMarkers } from "../markers/execute.ts";
import { resolveFetchMarkers } from "./follow-up.ts";
import { summarizePrevious } from "../memory/short-term-summary.ts";
import { userName } from "../persona/persona.ts";
import { formatLocal } from "../util/time.ts";
import { LiloError, ProviderError, describeError } from "../errors.ts";
import { TURN_TEXTS } from "../prompts/turn-texts.ts";
import { proactivePlaceholder } from "../prompts/greeting.ts";
import { historyTurns } from "./history.ts";
import { applyBudget, budgetInput } from "./request-budget.ts";
import { normalizeText } from "../util/text.ts";
import type { Lookups } from "../web/lookups.ts";
import type { ToolCalling } from "../tools/tool-calling.ts";
import { completeWithTools } from "../tools/tool-loop.ts";
import { chatMarkerNames } from "../tools/chat-markers.ts";
import { imagePlan } from "./images.ts";

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
  db: Db;
  /** User messages as an inbox (reply state) and answers' delivery state. */
  inbox: InboxStore;
  jobs: JobsStore;
  /** Runs the after-reply jobs recorded with each answer. */
  durable: DurableJobs;
}

/** How often the model is asked before an empty or markers-only answer is reported. */
const EMPTY_ANSWER_TRIES = 2;

/**
 * One chat turn (SPEC §4): store the message first, run the checks, build the
 * cheat sheet, call the model, execute and strip markers, store the answer,
 * then extract notes in the background.
 */
export async function handleMessage(deps: TurnDeps, msg: IncomingMessage): Promise<TurnResult> {
  const got = receiveMessage(deps, msg, chatLabel(deps));
  // A redelivered message whose turn finished (or runs) elsewhere: stored once, answered once.
  if (got.duplicate && got.replyState !== "pending") return { ok: true, duplicate: true, text: "", userMessageId: got.message.id, notesUsed: [] };
  return answerStored(deps, got.message, msg.unseenImages ? [] : msg.images);
}

/**
 * Answers a stored user message: summarises the previous conversation when
 * this message opens a new one (also the reply to a greeting Lilo pushed on
 * her own), then runs the turn. `images` (not stored) go with the message
 * to a chat model that accepts them; an empty list stands for pictures the
 * model will not see.
 */
export async function answerStored(deps: TurnDeps, userMessage: ChatLogMessage, images?: ImageInput[]): Promise<TurnResult> {
  const opens = deps.chatLog.opensConversation(userMessage.conversationId, userMessage.id);
  const previous = opens ? deps.inbox.previousConversation(userMessage.userId, userMessage.conversationId) : undefined;
  if (previous !== undefined) await summarizePrevious(deps, userMessage.userId, previous);
  return answer(deps, userMessage, opens, images);
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
export async function previewCheatSheet(deps: TurnDeps, msg: { userId: string; text: string }): Promise<{ request: ChatRequest; notes: MemoryHit[]; blocks: MemoryBlocks }> {
  const now = deps.clock.now();
  const last = deps.chatLog.latestConversation(msg.userId);
  const running = last && now.getTime() - Date.parse(last.lastMessageAt) <= deps.config.memory.conversationPauseMinutes * 60_000;
  // A new conversation gets an id after every stored one, so "the messages before it" are the real ones.
  const conversationId = running ? last.id : Number.MAX_SAFE_INTEGER;
  const ctx: TurnContext = {
    userId: msg.userId,
    text: msg.text,
    userMessage: { id: Number.MAX_SAFE_INTEGER, userId: msg.userId, conversationId, role: "user", text: msg.text, model: null, mood: null, proactive: false, createdAt: now.toISOString() },
    conversationId,
    isNewConversation: !running,
    previousAnswer: undefined,
    now,
    extras: [],
  };
  // The steps that store nothing and call no model add their lines as in a real turn (greeting context, due topic, diary question).
  for (const step of deps.steps) if (step.readOnly) await step.before?.(ctx);
  let blocks: MemoryBlocks | undefined;
  // The same budget as a real turn, so the preview is what the model would receive.
  const { request } = applyBudget(await assemble(deps, ctx, (b) => (blocks = b)), deps.config.budget, deps.config.persona.language);
  return { request, notes: blocks!.notes.kept, blocks: blocks! };
}

async function answer(deps: TurnDeps, userMessage: ChatLogMessage, isNew: boolean, images?: ImageInput[]): Promise<TurnResult> {
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
    const pictures = imagePlan(config, model, ctx, images);
    const budgeted = applyBudget(await assemble(deps, ctx, (b) => (notes = b.notes.kept)), config.budget, config.persona.language);
    if (budgeted.dropped) deps.logger.debug("older turns left off to stay within the request budget", { userId: ctx.userId, dropped: budgeted.dropped });
    if (budgeted.overBy > 0) deps.logger.warn("the cheat sheet alone is over the request budget", { userId: ctx.userId, overByTokens: budgeted.overBy });
    const request = pictures.attach({ ...budgeted.request, maxTokens: config.modelCall.maxTokens });
    // An empty or markers-only answer is not an answer: ask once more, then report it (the turn stays retryable).
    for (let attempt = 0; attempt < EMPTY_ANSWER_TRIES; attempt++) {
      const reply = await completeWithTools({ ...deps, userName: userName(config, ctx.userId) }, ctx, model, request);
      // An answer written with chat-log passages (the recall tool or [RECALL:]) ranks below originals in later searches.
      const result = await finish(deps, ctx, model, request, normalizeText(reply.text), notes, reply.toolsUsed.includes("recall"));
      if (result) return pictures.annotate(input.notice ? { ...result, text: `${result.text}\n\n${input.notice}` } : result);
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

/**
 * Markers out (fetch markers answered by one follow-up call), then the answer
 * stored with its after-reply jobs (see recordAnswer). Undefined when nothing
 * is left to show: the caller asks again or reports it, nothing is stored.
 */
async function finish(deps: TurnDeps, ctx: TurnContext, model: ChatModel, request: ChatRequest, raw: string, notes: MemoryHit[], recalled = false): Promise<TurnResult | undefined> {
  const resolved = await resolveFetchMarkers({ ...deps, userName: userName(deps.config, ctx.userId) }, ctx, model, request, parseMarkers(raw));
  const shown = resolved.text.trim();
  if (!shown) return undefined;
  const label = modelLabel(model);
  const effects = await storeMarkers(deps, ctx, resolved.storeMarkers);
  const stored = recordAnswer(deps, ctx, { text: shown, model: label, mood: effects.mood ?? null, recallAnswer: resolved.recall || recalled });
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
    const services = { memory: deps.memory, topics: deps.topics, suggestions: deps.suggestions, followupDueDays: deps.config.topics.followupDueDays, logger: deps.logger };
    return await executeStoreMarkers(services, { userId: ctx.userId, userMessageId: ctx.userMessage.id, conversationId: ctx.conversationId, now: deps.clock.now() }, markers);
  } catch (err) {
    deps.logger.error("markers of the answer could not all be stored", { userId: ctx.userId, error: describeError(err) });
    return {};
  }
}
