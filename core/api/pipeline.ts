/**
 * The chat turn as one ordered list of `(ctx, next)` middleware (SPEC §4),
 * in the manner of grammY's Composer and Hono's compose: each feature
 * exports its middleware, per-turn state lives on the typed context, and
 * after-reply work is `ctx.waitUntil(...)`, recorded with the answer.
 */
import type { LiloConfig } from "../foundation/config/config.ts";
import type { Clock } from "../foundation/ports/clock.ts";
import type { Logger } from "../foundation/ports/logger.ts";
import type { ChatRequest, ImageInput } from "../foundation/ports/chat-model.ts";
import type { Db } from "../foundation/store/db.ts";
import type { ChatLog, ChatLogMessage } from "../foundation/store/chat-log.ts";
import type { InboxStore } from "../foundation/store/inbox.ts";
import type { JobsStore } from "../foundation/store/jobs.ts";
import type { ProfileStore } from "../foundation/store/profile.ts";
import type { ShortTermStore } from "../foundation/store/short-term.ts";
import type { RulesStore } from "../foundation/store/rules.ts";
import type { ModelProblems } from "../foundation/store/model-problems.ts";
import type { TopicsStore } from "../foundation/store/topics.ts";
import type { SuggestionsStore } from "../foundation/store/suggestions.ts";
import type { ChatHistory } from "../foundation/store/chat-history.ts";
import type { TextRows } from "../foundation/store/text-rows.ts";
import type { Memory, MemoryHit } from "../memory/memory.ts";
import type { ModelRegistry } from "../foundation/models/registry.ts";
import type { Persona } from "../conversation/persona/persona.ts";
import type { Questions } from "../conversation/questions/questions.ts";
import type { CorrectionLog } from "../conversation/correction/correction-log.ts";
import type { ChatSearch } from "../memory/recall/search.ts";
import type { ChatRecallDeps } from "../memory/recall/sheet-recall.ts";
import type { Lookups } from "../lookups/lookups.ts";
import type { ToolCalling } from "../lookups/tool-calling.ts";
import type { DurableJobs } from "../foundation/util/durable-jobs.ts";
import type { IncomingMessage, TurnInput, TurnMiddleware, TurnResult } from "../conversation/turn/types.ts";
import { Turn } from "../conversation/turn/context.ts";
import { compose } from "../conversation/turn/compose.ts";
import { receiveMessage, storeMessage, type Received } from "../conversation/turn/receive.ts";
import { registerAfterReplyTasks } from "../conversation/turn/after-reply.ts";
import { answerWithModel } from "../conversation/turn/answer.ts";
import { createAnswering } from "../conversation/turn/answering.ts";
import { createTurnSheet } from "../conversation/turn/sheet.ts";
import { finishStored } from "../conversation/turn/resume.ts";
import { applyBudget } from "../conversation/turn/request-budget.ts";
import type { MemoryBlocks } from "../conversation/turn/memory-blocks.ts";
import { extractAfterReply, extractionTask } from "../conversation/extraction/extract-after-reply.ts";
import { summarizePrevious } from "../conversation/turn/short-term-summary.ts";
import { pendingAnswer } from "../conversation/correction/pending-answer-step.ts";
import { correction } from "../conversation/correction/correction-step.ts";
import { Corrections } from "../conversation/correction/corrections.ts";
import { diaryQuestion } from "../background/diary/diary-question-step.ts";
import { returnGreeting } from "../background/greeting/return-step.ts";
import { dueTopic } from "../conversation/topics/due-topic-step.ts";
import { chatMarkerNames } from "../conversation/tools/chat-markers.ts";
import { MARKERS } from "../conversation/markers/registry.ts";
import type { MarkerRegistry } from "../conversation/markers/marker.ts";
import { describeError, LiloError } from "../foundation/errors.ts";

/** The services the turn's middleware are built from; wired once in createLilo. */
export interface ChatTurnServices {
  config: LiloConfig;
  clock: Clock;
  logger: Logger;
  db: Db;
  persona: Persona;
  models: ModelRegistry;
  memory: Memory;
  chatLog: ChatLog;
  history: ChatHistory;
  profile: ProfileStore;
  shortTerm: ShortTermStore;
  rules: RulesStore;
  problems: ModelProblems;
  topics: TopicsStore;
  suggestions: SuggestionsStore;
  diary: TextRows;
  questions: Questions;
  correctionLog: CorrectionLog;
  /** The chat log searched by [RECALL:], and with its meaning side for the sheet's passages. */
  chatSearch: ChatSearch;
  chatRecall: ChatRecallDeps;
  /** Web search, fetch_url and news for the lookup markers and tools. */
  lookups?: Lookups | undefined;
  /** Which chat models get native tool calls. */
  tools?: ToolCalling | undefined;
  /** User messages as an inbox (reply state) and answers' delivery state. */
  inbox: InboxStore;
  jobs: JobsStore;
  /** Runs the after-reply jobs recorded with each answer. */
  durable: DurableJobs;
  /** The markers understood in chat (default: Lilo's registry; a test or plugin may add some). */
  markers?: MarkerRegistry | undefined;
  /** More middleware (tests, plugins), run after the built-in checks, before the model. */
  extra?: readonly TurnMiddleware[] | undefined;
}

/** The chat turn's entry points. */
export interface ChatTurn {
  /** One chat turn for a message from an adapter. */
  handle(msg: IncomingMessage): Promise<TurnResult>;
  /** Answers the user's newest message again after a failed model call or delivery, without storing it twice. */
  retry(userId: string): Promise<TurnResult | undefined>;
  /** Stores a message as the platform hands it over (before it is acknowledged). */
  receive(msg: IncomingMessage): Received;
  /** Answers or hands back a stored message after a restart (core/conversation/turn/resume.ts). */
  finish(messageId: number): Promise<TurnResult | undefined>;
  /** The cheat sheet Lilo would send for `text` now, storing nothing and calling no model (`lilo preview`). */
  preview(msg: { userId: string; text: string }): Promise<{ request: ChatRequest; notes: MemoryHit[]; blocks: MemoryBlocks }>;
  /** The middleware in order. */
  readonly middleware: readonly TurnMiddleware[];
}

/**
 * Builds the turn: store message → extraction after the reply → pending
 * yes/no → correction → diary question → return greeting → due topic →
 * answer with the model. The sheet shows the middleware's sections in SPEC
 * §4 order whatever this order is.
 */
export function createChatTurn(s: ChatTurnServices): ChatTurn {
  const { config, persona } = s;
  const language = persona.language;
  const chatModel = () => chatLabel(s);
  const markers = s.markers ?? MARKERS;
  const sheet = createTurnSheet(
    { persona, memory: s.memory, profile: s.profile, chatRecall: s.chatRecall, shortTerm: s.shortTerm, rules: s.rules, chatLog: s.chatLog, markers, markerNames: () => chatMarkerNames({ ...s, markers }) },
    { memory: config.memory, timezone: config.timezone },
  );
  const replies = { clock: s.clock, db: s.db, chatLog: s.chatLog, inbox: s.inbox, jobs: s.jobs, durable: s.durable };
  const corrections = new Corrections(
    { memory: s.memory, profile: s.profile, rules: s.rules, models: s.models, problems: s.problems, log: s.correctionLog, logger: s.logger },
    { corrections: config.corrections, maxTokens: config.modelCall.maxTokens },
  );
  const fetching = { limits: { maxPassages: config.recall.maxPassages, diaryTopK: config.recall.diaryTopK, notesTopK: config.memory.notesTopK }, timeZone: config.timezone, clock: s.clock, logger: s.logger, memory: s.memory, recall: s.chatSearch, chatRecall: s.chatRecall, lookups: s.lookups, markers };
  const answering = createAnswering({
    models: s.models,
    fetching,
    tools: s.tools,
    storing: { memory: s.memory, topics: s.topics, suggestions: s.suggestions, followupDueDays: config.topics.followupDueDays },
    persona,
    logger: s.logger,
  });
  const middleware: TurnMiddleware[] = [
    storeMessage(
      { db: s.db, chatLog: s.chatLog, inbox: s.inbox, clock: s.clock, chatModel, summarizePrevious: (userId, id) => summarizePrevious(s, userId, id) },
      { memory: config.memory, budget: config.budget, language },
    ),
    extractAfterReply(
      extractionTask(
        { models: s.models, memory: s.memory, profile: s.profile, problems: s.problems, persona, clock: s.clock, logger: s.logger },
        { timezone: config.timezone, maxInputChars: config.budget.maxInputChars, maxTokens: config.modelCall.maxTokens },
      ),
    ),
    pendingAnswer({ questions: s.questions, chatLog: s.chatLog, clock: s.clock, logger: s.logger }, { answerWords: config.questions.answerWords, language }),
    correction({ corrections, questions: s.questions, persona, clock: s.clock, logger: s.logger }, { questionTtlMinutes: config.questions.ttlMinutes, terminalUserId: config.terminal.userId }),
    diaryQuestion(s.diary, { diary: config.diary, timezone: config.timezone, language }),
    returnGreeting({ persona, chatLog: s.chatLog, history: s.history }, { greeting: config.greeting, timezone: config.timezone }),
    dueTopic({ topics: s.topics, persona, clock: s.clock, logger: s.logger }, { topics: config.topics }),
    ...(s.extra ?? []),
    answerWithModel(
      { sheet, answering, replies, persona, logger: s.logger },
      { budget: config.budget, media: config.media, maxTokens: config.modelCall.maxTokens },
    ),
  ];
  registerAfterReplyTasks(s, middleware.flatMap((m) => m.tasks ?? []));
  const chain = compose(middleware);
  const run = async (input: TurnInput): Promise<TurnResult> => {
    const ctx = new Turn(input);
    await chain(ctx);
    if (!ctx.result) throw new LiloError("internal", "the chat turn ended without a result");
    return ctx.result;
  };
  const answerStored = (message: ChatLogMessage, images?: ImageInput[]) => run({ kind: "stored", message, images });
  const readOnly = compose(middleware.filter((m) => m.readOnly));

  return {
    middleware,
    handle: (message) => run({ kind: "new", message }),
    async retry(userId) {
      const last = s.inbox.retryable(userId);
      return last ? run({ kind: "retry", message: last }) : undefined;
    },
    receive: (msg) => receiveMessage({ ...s, config: { memory: config.memory } }, msg, chatModel()),
    finish: (messageId) => finishStored({ ...s, answerStored }, { inbox: config.inbox, timezone: config.timezone }, messageId),
    async preview(msg) {
      const now = s.clock.now();
      const last = s.chatLog.latestConversation(msg.userId);
      const running = last && now.getTime() - Date.parse(last.lastMessageAt) <= config.memory.conversationPauseMinutes * 60_000;
      // A new conversation gets an id after every stored one, so "the messages before it" are the real ones.
      const conversationId = running ? last.id : Number.MAX_SAFE_INTEGER;
      const userMessage: ChatLogMessage = { id: Number.MAX_SAFE_INTEGER, userId: msg.userId, conversationId, role: "user", text: msg.text, model: null, mood: null, proactive: false, createdAt: now.toISOString() };
      const ctx = new Turn({ kind: "preview", message: userMessage });
      ctx.attach({ userMessage, text: msg.text, conversationId, isNewConversation: !running, previousAnswer: undefined, now });
      // The middleware that stores nothing and calls no model adds its sections as in a real turn (greeting context, due topic, diary question).
      await readOnly(ctx);
      let blocks: MemoryBlocks | undefined;
      // The same budget as a real turn, so the preview is what the model would receive.
      const { request } = applyBudget(await sheet.assemble(ctx, (b) => (blocks = b)), config.budget, language);
      return { request, notes: blocks!.notes.kept, blocks: blocks! };
    },
  };
}

/**
 * The chat model a conversation starts with, or null when none is usable: the
 * message is stored anyway, and the turn reports the missing model as its error.
 */
function chatLabel(s: { models: ModelRegistry; logger: Logger }): string | null {
  try {
    const spec = s.models.chatSpec();
    return `${spec.provider}:${spec.model}`;
  } catch (err) {
    s.logger.debug("no chat model to record for the conversation", { error: describeError(err) });
    return null;
  }
}
