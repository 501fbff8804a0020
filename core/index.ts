import type { LiloConfig, ModelRole } from "./config.ts";
import type { Clock } from "./ports/clock.ts";
import { systemClock } from "./ports/clock.ts";
import type { Embedder } from "./ports/embedder.ts";
import type { VectorIndex, VectorIndexState, VectorStore } from "./ports/vector-index.ts";
import type { ChatModel, ChatRequest } from "./ports/chat-model.ts";
import type { Logger } from "./ports/logger.ts";
import { silentLogger } from "./ports/logger.ts";
import { registerSecrets, urlSecrets } from "./util/redact.ts";
import { Contacts } from "./health/contacts.ts";
import { recordingContact } from "./health/contact-model.ts";
import { openDatabase, type Db } from "./store/db.ts";
import { ChatLog } from "./store/chat-log.ts";
import { ProfileStore } from "./store/profile.ts";
import { ShortTermStore } from "./store/short-term.ts";
import { RulesStore } from "./store/rules.ts";
import { SettingsStore } from "./store/settings.ts";
import { LiveSettings, ownLiveSections } from "./settings/live-settings.ts";
import { createSettingsApi, type SettingsApi } from "./settings/settings-api.ts";
import { describeError } from "./errors.ts";
import { ModelProblems } from "./store/model-problems.ts";
import { TopicsStore } from "./store/topics.ts";
import { SuggestionsStore } from "./store/suggestions.ts";
import { Memory, type AddResult, type HybridTuning, type MemoryHit } from "./memory/memory.ts";
import { checkConsistency, reindex, repairConsistency, type ConsistencyReport } from "./memory/maintenance.ts";
import { ModelRegistry, type ModelFactory } from "./models/registry.ts";
import { BackgroundTasks } from "./util/background.ts";
import { InboxStore, type UnfinishedMessage } from "./store/inbox.ts";
import { JobsStore } from "./store/jobs.ts";
import { DurableJobs } from "./util/durable-jobs.ts";
import { createTranscriber } from "./providers/openai-transcriber.ts";
import type { Transcriber } from "./ports/transcriber.ts";
import { parseImportText, type ImportStore, type ImportLine, type RefusedLine } from "./transfer/import-lines.ts";
import { applyImport, planCounts, planImport, type ImportPlan } from "./transfer/import.ts";
import type { IncomingMessage, TurnResult, TurnMiddleware } from "./turn/types.ts";
import { createChatTurn } from "./turn/pipeline.ts";
import type { MarkerRegistry } from "./markers/marker.ts";
import type { MemoryBlocks } from "./turn/memory-blocks.ts";
import { Questions, type Answer, type AnswerOutcome } from "./questions/questions.ts";
import { ruleQuestionHandler } from "./questions/rule-question.ts";
import { CorrectionLog, type CorrectionEntry } from "./correction/correction-log.ts";
import { Push } from "./push/push.ts";
import { deliveredBookkeeping } from "./push/delivered.ts";
import { ChatHistory } from "./store/chat-history.ts";
import { ChatSearch, type ChatSearchTuning, type RankedMessage, type RecallPassage } from "./recall/search.ts";
import { rankMessages, recallPassages, type ChatFusionTuning, type ChatRecallDeps, type ChatRecallOptions } from "./recall/sheet-recall.ts";
import { MessageVectors } from "./recall/message-vectors.ts";
import { importMessages, type ImportedMessage } from "./store/chat-import.ts";
import { diaryApi, type DiaryApi } from "./diary/diary-api.ts";
import { reflectionApi, type ReflectionApi } from "./reflection/reflection-api.ts";
import { greetingApi, type GreetingApi } from "./greeting/greeting-api.ts";
import { analysisApi, type AnalysisApi } from "./analysis/analysis-api.ts";
import { concerns } from "./reflection/concerns.ts";
import { featureContext } from "./util/feature-context.ts";
import { createPersona } from "./persona/persona.ts";
import { createChatModel } from "./providers/model-factory.ts";
import { SqliteVecIndex } from "./providers/sqlite-vec-index.ts";
import { lazyVectorIndex } from "./providers/lazy.ts";
import { EmbeddedIndex } from "./providers/embedded-index/embedded-index.ts";
import { TransformersEmbedder } from "./providers/transformers-embedder.ts";
import { createLookups } from "./web/create-lookups.ts";
import type { WebSearch } from "./ports/web-search.ts";
import type { SearchLog } from "./store/search-log.ts";
import type { News } from "./news/news.ts";
import type { ToolCalling } from "./tools/tool-calling.ts";

export * from "./config.ts";
export * from "./errors.ts";
export type { IncomingMessage, TurnResult, Question, TurnMiddleware, TurnContext } from "./turn/types.ts";
export type { MemoryHit, AddResult } from "./memory/memory.ts";
export type { RankedMessage, RecallPassage } from "./recall/search.ts";
export type { MemoryBlocks, Block, SheetPassage } from "./turn/memory-blocks.ts";
export type { ImportedMessage } from "./store/chat-import.ts";
export type { UnfinishedMessage } from "./store/inbox.ts";
export type { ImportPlan } from "./transfer/import.ts";
export type { ImportStore, ImportLine, RefusedLine } from "./transfer/import-lines.ts";
export { IMPORT_STORES } from "./transfer/import-lines.ts";
export type { Clock } from "./ports/clock.ts";
export { fixedClock, systemClock } from "./ports/clock.ts";
export type { Embedder } from "./ports/embedder.ts";
export type { VectorIndex, VectorIndexState, VectorStore } from "./ports/vector-index.ts";
export { VECTOR_STORES } from "./ports/vector-index.ts";
export type { ChatModel, ChatRequest, ChatResponse } from "./ports/chat-model.ts";
export type { Logger } from "./ports/logger.ts";
export type { WebSearch, SearchResult } from "./ports/web-search.ts";
export type { SearchLogEntry } from "./store/search-log.ts";
export type { FeedFetchReport } from "./news/news.ts";
export type { Transport, PushMessage, PushTarget } from "./ports/transport.ts";
export type { PushOutcome, PushResult } from "./push/push.ts";
export type { Answer, AnswerOutcome, PendingQuestion, QuestionHandler } from "./questions/questions.ts";
export type { CorrectionEntry, CorrectionAction } from "./correction/correction-log.ts";
export { consoleLogger, silentLogger } from "./ports/logger.ts";
export { redactSecrets } from "./util/redact.ts";
export { MEDIA_TEXTS, photoMessageText } from "./prompts/media-texts.ts";
export { acceptsImages } from "./media-config.ts";
export type { AudioInput, Transcriber } from "./ports/transcriber.ts";
export type { ImageInput } from "./ports/chat-model.ts";
export { normalizeText } from "./util/text.ts";
export type { ContactStatus } from "./health/contacts.ts";
export { ensurePrivateDir, makePrivate, openToOthers, PRIVATE_FILE_MODE } from "./util/file-modes.ts";
export type { DiaryApi } from "./diary/diary-api.ts";
export type { DiaryEntry, DiaryResult, DiaryReason } from "./diary/write-diary.ts";
export type { ReflectionApi, ThoughtEntry } from "./reflection/reflection-api.ts";
export type { ReflectionResult, ReflectionReason } from "./reflection/reflect.ts";
export type { ConcernOutcome } from "./reflection/concerns.ts";
export type { GreetingApi, GreetingPreview } from "./greeting/greeting-api.ts";
export type { GreetingResult, GreetingReason } from "./greeting/greet.ts";
export { analysisApi, AnalysisError } from "./analysis/analysis-api.ts";
export type { AnalysisApi, AnalysisOptions, AnalysisPreview, AnalysisResult, AnalysisSelection, AnalysisListEntry, QuoteCheck } from "./analysis/analysis-api.ts";

/** Implementations that replace the configured ones; every port can be passed in. */
export interface LiloPorts {
  clock?: Clock;
  embedder?: Embedder;
  vectorIndex?: VectorIndex;
  /** The chat model; other roles fall back to it unless configured or given in `models`. */
  chatModel?: ChatModel;
  models?: Partial<Record<ModelRole, ChatModel>>;
  /** Builds models from "provider:model" specs (run-time switches); default: the real providers. */
  modelFactory?: ModelFactory;
  logger?: Logger;
  /** An open database (otherwise `config.dbPath` is opened). */
  db?: Db;
  /** Extra turn middleware, run in order after the built-in checks, before the model call. */
  steps?: TurnMiddleware[];
  /** The markers understood in chat (default: all of Lilo's; `MARKERS.with(...)` adds one). */
  markers?: MarkerRegistry;
  /** Ranking knobs of the hybrid and chat-log searches (defaults tuned by `npm run bench:recall`). */
  tuning?: { hybrid?: Partial<HybridTuning>; chat?: Partial<ChatSearchTuning>; chatFusion?: Partial<ChatFusionTuning> };
  /** Web search provider (otherwise the configured SearXNG or Brave). */
  webSearch?: WebSearch;
  /** Speech to text for voice notes (otherwise the configured LILO_TRANSCRIBE_BASE_URL endpoint, if any). */
  transcriber?: Transcriber;
}

/** Options of `memory.search`. */
export interface MemorySearchOptions {
  store?: VectorStore;
  k?: number;
  userId: string;
  minScore?: number;
}

/** Lilo as a library: the chat turn, the memory, and maintenance. */
export interface Lilo {
  readonly config: LiloConfig;
  /** Settings changed at run time (`lilo settings set`), merged over the `.env` configuration. */
  readonly live: LiveSettings;
  /** `lilo settings`: list, set and unset live settings and the chat model; configuration and secrets as read-only rows. */
  readonly settings: SettingsApi;
  readonly clock: Clock;
  readonly db: Db;
  readonly logger: Logger;
  /** Speech to text for voice notes; undefined when no transcription endpoint is configured. */
  readonly transcriber: Transcriber | undefined;
  /** One chat turn; never throws for a failed model call (see `TurnResult.ok`). */
  handleMessage(message: IncomingMessage): Promise<TurnResult>;
  /** The cheat sheet Lilo would send for this message now, with its memory blocks; stores nothing (derived message vectors aside), calls no model. */
  preview(message: { userId: string; text: string }): Promise<{ request: ChatRequest; notes: MemoryHit[]; blocks: MemoryBlocks }>;
  /** Answers the user's last message again after a failure; undefined if it was answered. */
  retry(userId: string): Promise<TurnResult | undefined>;
  /**
   * The durable inbox: adapters store a message when the platform hands it
   * over (before acknowledging it), report whether each answer was
   * delivered, and on start finish what a crash left open.
   */
  inbox: {
    /** Stores a message (once per `externalId`); returns its id and whether it had arrived before. */
    receive(message: IncomingMessage): { messageId: number; duplicate: boolean };
    /** Messages of one platform whose turn did not finish or whose answer was not sent, oldest first. */
    unfinished(transport: string): UnfinishedMessage[];
    /** Answers (or, past the age limit, acknowledges) a stored message, or returns its unsent answer; undefined when done. */
    finish(messageId: number): Promise<TurnResult | undefined>;
    /** The answer reached the user. */
    delivered(answerId: number): void;
    /** The platform refused the answer: /retry redoes the turn. */
    deliveryFailed(answerId: number): void;
  };
  /** Starts the after-reply jobs (extraction, checks) a crash left pending; returns how many. */
  resumeJobs(): number;
  /** `lilo import`: JSON Lines in the format `lilo export` writes, planned (dry run) and then applied all or nothing. */
  transfer: {
    parse(text: string, defaults: { store: ImportStore; userId: string }): { lines: ImportLine[]; refused: RefusedLine[] };
    plan(lines: ImportLine[], refused: RefusedLine[], opts: { allowDuplicates: boolean }): Promise<ImportPlan>;
    counts(plan: ImportPlan): Record<ImportStore, { add: number; skip: number; refuse: number }>;
    apply(plan: ImportPlan): Promise<number>;
  };
  memory: {
    add(input: { text: string; userId: string; store?: VectorStore; createdAt?: string | Date; allowDuplicate?: boolean }): Promise<AddResult>;
    search(query: string, options: MemorySearchOptions): Promise<MemoryHit[]>;
    edit(store: VectorStore, id: number, text: string): Promise<void>;
    forget(store: VectorStore, id: number): Promise<void>;
  };
  /** Imports chat messages (with their original times) into the chat log, grouped into conversations; returns the ids. */
  importChat(messages: ImportedMessage[]): number[];
  /** The chat-log search the cheat sheet and [RECALL:] use: time words filter, explicit dates rank first, words and meaning fused. */
  recall: {
    passages(text: string, options: Omit<ChatRecallOptions, "vector">): Promise<(RecallPassage & { score: number })[]>;
    /** The same ranking as single messages, best first. */
    rank(text: string, options: Omit<ChatRecallOptions, "vector">): Promise<RankedMessage[]>;
    /** Embeds every chat message of the user that has no vector yet (after `importChat`; turns do it a batch at a time). */
    indexMessages(userId: string): Promise<number>;
  };
  /** Applies a yes/no answer (button, reaction); only the question's owner can answer. */
  answerQuestion(userId: string, questionId: number, answer: Answer): Promise<AnswerOutcome>;
  questions: Questions;
  /** The correction log: automatic corrections of notes, each one undoable (row and vector). */
  corrections: {
    /** Newest first; one user's entries, or everyone's without `userId`. */
    list(opts?: { userId?: string | undefined; limit?: number }): CorrectionEntry[];
    get(id: number): CorrectionEntry | undefined;
    /** Restores the corrected note (and forgets a rewrite's new note). */
    undo(id: number): Promise<CorrectionEntry>;
  };
  push: Push;
  /** The nightly diary (SPEC §8): "write now", the scheduled run, the entries. */
  diary: DiaryApi;
  /** Reflection in quiet hours (SPEC §9): "think now", the scheduled run, the thoughts. */
  reflection: ReflectionApi;
  /** Greetings Lilo pushes on her own (SPEC §9, Beyond): the scheduled run, "send now", a preview. */
  greeting: GreetingApi;
  /** The outside view (SPEC §10): a second model judges Lilo from the transcripts; saved reports. */
  analysis: AnalysisApi;
  /** Every user Lilo has talked with (distinct user ids in the chat log): whom the jobs run for. */
  knownUsers(): string[];
  models: ModelRegistry;
  /** Web search log, news feeds and native-tool settings (SPEC §5). */
  lookups: { searchLog: SearchLog; news: News; tools: ToolCalling };
  stores: {
    chatLog: ChatLog;
    profile: ProfileStore;
    shortTerm: ShortTermStore;
    rules: RulesStore;
    topics: TopicsStore;
    suggestions: SuggestionsStore;
    settings: SettingsStore;
    problems: ModelProblems;
    memory: Memory;
  };
  maintenance: {
    check(): Promise<ConsistencyReport>;
    repair(report: ConsistencyReport): Promise<void>;
    reindex(onProgress?: (done: number, total: number) => void): Promise<number>;
    /** The derived copy of the embedded index (entries, last change applied, rebuild needed); undefined for other backends. */
    indexState(): Promise<VectorIndexState | undefined>;
    /** Rebuilds the embedded index's RAM copy from SQLite (no re-embedding); false for other backends. */
    reloadIndex(): Promise<boolean>;
  };
  /** Last successful contact (and last failure) of each adapter and model: adapters report theirs, models are recorded on every call. */
  contacts: Pick<Contacts, "ok" | "failed" | "list">;
  /** Loads the embedding model (downloading it on a first start) and opens the index now instead of on the first message. */
  warmUp(): Promise<void>;
  /** Waits until background work (extraction, checks) is done. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The composition root: opens the database, wires stores, memory, models and
 * the chat turn. Nothing is loaded until used (the embedder loads on the
 * first memory access), so creating Lilo is cheap.
 */
export function createLilo(sharedConfig: LiloConfig, ports: LiloPorts = {}): Lilo {
  registerSecrets(configSecrets(sharedConfig));
  // Live settings write into this Lilo's own copy of the sections they change.
  const config = ownLiveSections(sharedConfig);
  const clock = ports.clock ?? systemClock;
  const logger = ports.logger ?? silentLogger;
  const db = ports.db ?? openDatabase(config.dbPath);
  const embedder = ports.embedder ?? new TransformersEmbedder({ model: config.embedding.model, localDir: config.embedding.localDir, offline: config.embedding.offline });
  const index = ports.vectorIndex ?? defaultIndex(config, db);
  const memory = new Memory(db, embedder, index, clock, {
    notesMinScore: config.memory.notesMinScore,
    dedupMinScore: config.memory.dedupMinScore,
    ...(ports.tuning?.hybrid ? { hybrid: ports.tuning.hybrid } : {}),
  });
  const settings = new SettingsStore(db);
  const overrides: Partial<Record<ModelRole, ChatModel>> = { ...ports.models };
  if (ports.chatModel) overrides.chat = ports.chatModel;
  const contacts = new Contacts(settings, clock);
  const makeModel = ports.modelFactory ?? ((spec) => createChatModel(spec, config));
  const models = new ModelRegistry(config, (spec) => recordingContact(makeModel(spec), contacts), settings, overrides);
  const background = new BackgroundTasks(logger);
  const stores = {
    chatLog: new ChatLog(db),
    profile: new ProfileStore(db),
    shortTerm: new ShortTermStore(db),
    rules: new RulesStore(db),
    topics: new TopicsStore(db),
    suggestions: new SuggestionsStore(db),
    settings,
    problems: new ModelProblems(db),
    memory,
  };
  const questions = new Questions(db, clock, config.persona.language);
  questions.register(ruleQuestionHandler(stores.rules, config.persona.language));
  const live = new LiveSettings(config, settings, () => clock.now().toISOString(), (key, err) =>
    logger.error("stored setting ignored: it does not pass its rule; `lilo settings unset` removes it", { key, error: describeError(err) }),
  );
  // A getter, so quiet hours changed with `lilo settings set` apply to the next push.
  const push = new Push(db, clock, logger, { get hours() { return config.push.quietHours; }, timezone: config.timezone });
  const correctionLog = new CorrectionLog(db, memory, clock);
  const history = new ChatHistory(db);
  const chatSearch = new ChatSearch(db, config.timezone, ports.tuning?.chat);
  const messageVectors = new MessageVectors(db, embedder);
  const chatRecall: ChatRecallDeps = { recall: chatSearch, clock, timeZone: config.timezone, vectors: messageVectors, fusion: ports.tuning?.chatFusion,
    minSimilarity: () => memory.thresholds.notesMinScore };
  const looks = createLookups(config, db, clock, logger, ports.webSearch);
  const inbox = new InboxStore(db);
  const jobs = new JobsStore(db);
  const durable = new DurableJobs(jobs, background, clock, logger, config.inbox.jobMaxAttempts);
  const { chatLog, profile, shortTerm, rules, problems, topics, suggestions } = stores;
  const persona = createPersona(config.persona);
  const turn = createChatTurn({ config, clock, logger, db, persona, models, memory, chatLog, history, profile, shortTerm, rules, problems, topics, suggestions,
    diary: memory.rows.diary, questions, correctionLog, chatSearch, chatRecall, lookups: looks.lookups, tools: looks.tools, inbox, jobs, durable, extra: ports.steps, markers: ports.markers });
  const importDeps = { db, memory, embedder, index };
  const deliveryState = (state: "delivered" | "failed") => (answerId: number) => inbox.setDelivery(answerId, state, clock.now().toISOString());
  push.setDeliveredHandler(deliveredBookkeeping({ config, clock, logger, db, models, chatLog: stores.chatLog, shortTerm: stores.shortTerm, topics: stores.topics }));
  const feature = featureContext(config, { clock, logger, profile: stores.profile });
  const concernsOf = concerns({ topics: stores.topics, settings, push, models }, config.reflection, feature);
  const news = config.lookup.reflectionNews.enabled ? { feed: looks.news, items: config.lookup.reflectionNews.items } : undefined;

  return {
    config,
    live,
    settings: createSettingsApi({ config, live, store: settings, models, now: () => clock.now().toISOString() }),
    clock,
    db,
    logger,
    transcriber: ports.transcriber ?? createTranscriber(config.media),
    handleMessage: (message) => turn.handle(message),
    retry: (userId) => turn.retry(userId),
    inbox: {
      receive: (message) => {
        const got = turn.receive(message);
        return { messageId: got.message.id, duplicate: got.duplicate };
      },
      unfinished: (transport) => inbox.unfinished(transport),
      finish: (messageId) => turn.finish(messageId),
      delivered: deliveryState("delivered"),
      deliveryFailed: deliveryState("failed"),
    },
    resumeJobs: () => durable.runPending(),
    transfer: {
      parse: (text, defaults) => parseImportText(text, { ...defaults, now: clock.now().toISOString() }),
      plan: (lines, refused, opts) => planImport(importDeps, lines, refused, opts),
      counts: planCounts,
      apply: (plan) => applyImport(importDeps, plan),
    },
    preview: (message) => turn.preview(message),
    memory: {
      add: (input) => memory.add(input),
      search: (query, o) => memory.search(query, o),
      edit: (store, id, text) => memory.edit(store, id, text),
      forget: async (store, id) => {
        await memory.forget(store, id);
      },
    },
    importChat: (messages) => importMessages(db, stores.chatLog, messages, config.memory.conversationPauseMinutes),
    recall: {
      passages: async (text, o) => recallPassages(chatRecall, text, { ...o, vector: await memory.embed(text) }),
      rank: async (text, o) => rankMessages(chatRecall, text, { ...o, vector: await memory.embed(text) }),
      indexMessages: (userId) => messageVectors.catchUpAll(userId),
    },
    answerQuestion: (userId, questionId, answer) => questions.answer(userId, questionId, answer),
    questions,
    corrections: {
      list: (opts) => correctionLog.list(opts),
      get: (id) => correctionLog.get(id),
      undo: (id) => correctionLog.undo(id),
    },
    push,
    diary: diaryApi({ memory, history, models, push }, config.diary, persona, feature),
    reflection: reflectionApi({ memory, history, models, settings, concerns: concernsOf, news, thoughtsMinScore: config.memory.thoughtsMinScore }, config.reflection, persona, feature),
    greeting: greetingApi({ chatLog: stores.chatLog, history, models, push, topics: stores.topics, topicsConfig: config.topics }, config.greeting, persona, feature),
    analysis: analysisApi({ db, models, settings, userNames: config.persona.userNames }, config.analysis, persona, feature),
    knownUsers: () => history.users(),
    models,
    lookups: { searchLog: looks.searchLog, news: looks.news, tools: looks.tools },
    stores,
    maintenance: {
      check: () => checkConsistency(memory, index),
      repair: (report) => repairConsistency(memory, index, embedder, report),
      reindex: (onProgress) => reindex(memory, index, embedder, onProgress),
      indexState: async () => {
        await memory.init();
        return index.copyState?.();
      },
      reloadIndex: async () => {
        await memory.init();
        if (!index.reloadCopy) return false;
        await index.reloadCopy();
        return true;
      },
    },
    contacts,
    warmUp: () => memory.init(),
    idle: () => background.idle(),
    close: async () => {
      await push.stopDelivery();
      await background.idle();
      await index.close();
      if (!ports.db) db.close();
    },
  };
}

function defaultIndex(config: LiloConfig, db: Db): VectorIndex {
  if (config.vector.backend === "qdrant" && config.vector.qdrantUrl) {
    const options = { url: config.vector.qdrantUrl, collection: config.vector.collection, ...(config.vector.qdrantApiKey ? { apiKey: config.vector.qdrantApiKey } : {}) };
    const name = `qdrant (${options.url}, collection ${options.collection ?? "lilo"})`;
    return lazyVectorIndex(name, async () => new (await import("./providers/qdrant-index.ts")).QdrantIndex(options));
  }
  if (config.vector.backend === "sqlite-vec") return new SqliteVecIndex(db);
  return new EmbeddedIndex(db, { graphMinSize: config.vector.graphMinSize });
}

/** Every secret value in the configuration: provider keys, passwords in base URLs, bot and access tokens. */
function configSecrets(config: LiloConfig): string[] {
  const providers = Object.values(config.providers).flatMap((p) => [p.apiKey, ...urlSecrets(p.baseUrl)]);
  return [...providers, config.vector.qdrantApiKey, ...urlSecrets(config.vector.qdrantUrl), config.telegram.token, config.matrix.accessToken, config.lookup.search.braveApiKey, config.media.transcribe.apiKey, ...urlSecrets(config.lookup.search.searxngUrl)].filter((s): s is string => !!s);
}
