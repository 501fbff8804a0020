import type { LiloConfig, ModelRole } from "../foundation/config/config.ts";
import type { Clock } from "../foundation/ports/clock.ts";
import { systemClock } from "../foundation/ports/clock.ts";
import type { Embedder } from "../foundation/ports/embedder.ts";
import type { VectorIndex } from "../foundation/ports/vector-index.ts";
import type { ChatModel } from "../foundation/ports/chat-model.ts";
import type { Logger } from "../foundation/ports/logger.ts";
import { silentLogger } from "../foundation/ports/logger.ts";
import { registerSecrets } from "../foundation/util/redact.ts";
import { configSecrets } from "../foundation/config/secrets.ts";
import { Contacts } from "../foundation/health/contacts.ts";
import { recordingContact } from "../foundation/health/contact-model.ts";
import { openDatabase, setPageCache, type Db } from "../foundation/store/db.ts";
import { BackgroundCheckpoints } from "../foundation/store/background-checkpoints.ts";
import { ChatLog } from "../foundation/store/chat-log.ts";
import { ProfileStore } from "../foundation/store/profile.ts";
import { ShortTermStore } from "../foundation/store/short-term.ts";
import { RulesStore } from "../foundation/store/rules.ts";
import { SettingsStore } from "../foundation/store/settings.ts";
import { LiveSettings, ownLiveSections } from "../foundation/settings/live-settings.ts";
import { createSettingsApi } from "./settings-api.ts";
import { describeError } from "../foundation/errors.ts";
import { ModelProblems } from "../foundation/store/model-problems.ts";
import { TopicsStore } from "../foundation/store/topics.ts";
import { SuggestionsStore } from "../foundation/store/suggestions.ts";
import { Memory, type HybridTuning } from "../memory/memory.ts";
import { ModelRegistry, type ModelFactory, type ModelLister } from "../foundation/models/registry.ts";
import { listModels } from "../foundation/providers/model-list.ts";
import { BackgroundTasks } from "../foundation/util/background.ts";
import { normalizeText } from "../foundation/util/text.ts";
import { InboxStore } from "../foundation/store/inbox.ts";
import { JobsStore } from "../foundation/store/jobs.ts";
import { DurableJobs } from "../foundation/util/durable-jobs.ts";
import { usageLedger, budgetFallbackModel } from "./wiring/usage.ts";
import { createTranscriber } from "../foundation/providers/openai-transcriber.ts";
import type { Transcriber } from "../foundation/ports/transcriber.ts";
import type { TurnMiddleware } from "../conversation/turn/types.ts";
import { createChatTurn } from "./pipeline.ts";
import type { MarkerRegistry } from "../conversation/markers/marker-registry.ts";
import { MARKERS } from "../conversation/markers/registry.ts";
import type { Services } from "./wiring/services.ts";
import { chatTurnParts } from "./wiring/turn.ts";
import { backgroundFeatures } from "./wiring/features.ts";
import { Questions } from "../conversation/questions/questions.ts";
import { ruleQuestionHandler } from "../conversation/questions/rule-question.ts";
import { CorrectionLog } from "../conversation/correction/correction-log.ts";
import { Push } from "../background/push/push.ts";
import { ChatHistory } from "../foundation/store/chat-history.ts";
import type { ChatSearchTuning } from "../memory/recall/search.ts";
import { rankMessages, recallPassages, type ChatFusionTuning } from "../memory/recall/sheet-recall.ts";
import type { ConceptStep } from "../memory/recall/concept-matches.ts";
import type { Lexicon } from "../foundation/ports/lexicon.ts";
import { wireChatRecall } from "./wiring/chat-recall.ts";
import { memoryKeywordIndex } from "./wiring/keyword-indexes.ts";
import { importMessages } from "../foundation/store/chat-import.ts";
import { createPersona } from "../conversation/persona/persona.ts";
import { createChatModel } from "../foundation/providers/model-factory.ts";
import { LocalModels } from "../foundation/providers/local/local-models.ts";
import { lazyVectorIndex } from "../foundation/providers/lazy.ts";
import { EmbeddedIndex } from "../foundation/providers/embedded-index/embedded-index.ts";
import { TransformersEmbedder } from "../foundation/providers/transformers-embedder.ts";
import type { Reranker } from "../foundation/ports/reranker.ts";
import { createLookups } from "../lookups/create-lookups.ts";
import type { WebSearch } from "../foundation/ports/web-search.ts";
import type { Lilo } from "./lilo-api.ts";
import type { NewsApi } from "./lookups-api.ts";
import { acceptsImages } from "../foundation/config/media.ts";
import type { News } from "../lookups/news.ts";
import { memoryApi } from "./memory-api.ts";
import { profileApi } from "./profile-api.ts";
import { rulesApi } from "./rules-api.ts";
import { topicsApi } from "./topics-api.ts";
import { suggestionsApi } from "./suggestions-api.ts";
import { backupApi } from "./backup-api.ts";
import { transferApi } from "./transfer-api.ts";
import { maintenanceApi } from "./maintenance-api.ts";
import { usageApi } from "./usage-api.ts";
import { budgetWarnings } from "../background/budget/budget-warnings.ts";
import { webAccessApi } from "./web-access-api.ts";
import { WebTokensStore } from "../foundation/store/web-tokens.ts";
import { ReceiptsStore } from "../foundation/store/receipts.ts";
import { BoundariesStore } from "../foundation/store/boundaries.ts";
import { ForgetRows } from "../foundation/store/forget-rows.ts";
import { Receipts } from "../memory/receipts/receipts.ts";
import { BoundaryGuard } from "../memory/boundaries/boundaries.ts";
import { Forgetting } from "../memory/forgetting/forget-everywhere.ts";
import { forgetQuestionHandler } from "../conversation/questions/forget-question.ts";
import { wrongQuestionHandler } from "../conversation/questions/wrong-question.ts";
import { boundaryQuestionHandler } from "../conversation/boundaries/boundary-step.ts";
import { whyApi } from "./why-api.ts";
import { forgetApi } from "./forget-api.ts";
import { boundariesApi } from "./boundaries-api.ts";

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
  /** Which models a provider offers (`GET /models`); default: asked from the real providers unless `modelFactory` replaces them. */
  modelLister?: ModelLister;
  logger?: Logger;
  /** An open database (otherwise `config.dbPath` is opened). */
  db?: Db;
  /**
   * SQLite's WAL checkpoints on a worker thread instead of inside a commit on the event loop (the running bot;
   * short runs keep SQLite's default). Ended by `close`.
   */
  backgroundCheckpoints?: boolean;
  /** Extra turn middleware, run in order after the built-in checks, before the model call. */
  steps?: TurnMiddleware[];
  /** The markers understood everywhere (chat, tools, greeting, diary, reflection; default: all of Lilo's; `MARKERS.with(...)` adds one). */
  markers?: MarkerRegistry;
  /** Ranking knobs of the hybrid and chat-log searches (defaults tuned by `npm run bench:recall`). */
  tuning?: {
    hybrid?: Partial<HybridTuning>;
    chat?: Partial<ChatSearchTuning>;
    chatFusion?: Partial<ChatFusionTuning>;
    concepts?: Partial<Omit<ConceptStep, "lexicon">>;
  };
  /** Web search provider (otherwise the configured SearXNG or Brave). */
  webSearch?: WebSearch;
  /** Speech to text for voice notes (otherwise the configured LILO_TRANSCRIBE_BASE_URL endpoint, if any). */
  transcriber?: Transcriber;
  /** The engine of `local:` models (otherwise one built from LILO_LOCAL_*); closed with Lilo. */
  localModels?: LocalModels;
  /** A cross-encoder for the sheet's chat-log candidates (otherwise LILO_RERANKER_MODEL, if set; off by default). */
  reranker?: Reranker;
  /** The concept step's lexicon (otherwise LILO_CONCEPT_LEXICON: the bundled WordNet unless off). */
  lexicon?: Lexicon;
}

/**
 * The composition root: opens the database and builds every service once
 * (the `Services` record); core/api/wiring/ builds the chat turn's middleware
 * and the background features from it. Nothing is loaded until used (the
 * embedder loads on the first memory access), so creating Lilo is cheap.
 */
export function createLilo(sharedConfig: LiloConfig, ports: LiloPorts = {}): Lilo {
  // Every secret of the table (the core's and the adapters' sections): masked in all logs and errors from now on.
  registerSecrets(configSecrets(sharedConfig));
  // Live settings write into this Lilo's own copy of the sections they change.
  const config = ownLiveSections(sharedConfig);
  const clock = ports.clock ?? systemClock;
  const logger = ports.logger ?? silentLogger;
  const db = ports.db ?? openDatabase(config.dbPath);
  setPageCache(db, config.memory.sqliteCacheMb);
  const checkpoints = ports.backgroundCheckpoints && !db.memory ? new BackgroundCheckpoints(db, db.name, logger) : undefined;
  const embedder =
    ports.embedder ?? new TransformersEmbedder({ model: config.embedding.model, localDir: config.embedding.localDir, offline: config.embedding.offline });
  const index = ports.vectorIndex ?? defaultIndex(config, db, logger);
  const memoryKeywords = memoryKeywordIndex(config, db, logger);
  const memory = new Memory(db, embedder, index, clock, {
    keywords: memoryKeywords,
    notesMinScore: config.memory.notesMinScore,
    dedupMinScore: config.memory.dedupMinScore,
    ...(ports.tuning?.hybrid ? { hybrid: ports.tuning.hybrid } : {}),
  });
  const settings = new SettingsStore(db);
  const usage = usageLedger(config, db, clock, logger);
  // Every model — configured, switched to, or passed in — goes through the usage ledger.
  const overrides: Partial<Record<ModelRole, ChatModel>> = {};
  for (const [role, model] of Object.entries({ ...ports.models, ...(ports.chatModel ? { chat: ports.chatModel } : {}) }))
    overrides[role as ModelRole] = usage.wrap(model);
  const contacts = new Contacts(settings, clock);
  // One engine for every role that uses Lilo's own model: one model in memory.
  const localModels = ports.localModels ?? new LocalModels(config.local, config.modelCall.maxTokens, logger);
  const makeModel = ports.modelFactory ?? ((spec) => createChatModel(spec, config, localModels));
  const lister: ModelLister | undefined =
    ports.modelLister ?? (ports.modelFactory ? undefined : (provider) => listModels(provider, config.providers[provider]!, config.modelCall.timeoutMs));
  const models: ModelRegistry = new ModelRegistry(
    config,
    (spec) => usage.wrap(recordingContact(makeModel(spec), contacts)),
    settings,
    overrides,
    () => budgetFallbackModel(usage.budget, models, logger),
    lister,
  );
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
  const live = new LiveSettings(
    config,
    settings,
    () => clock.now().toISOString(),
    (key, err) => logger.error("stored setting ignored: it does not pass its rule; `lilo settings unset` removes it", { key, error: describeError(err) }),
  );
  // A getter, so quiet hours changed with `lilo settings set` apply to the next push.
  const push = new Push(db, clock, logger, {
    get hours() {
      return config.push.quietHours;
    },
    timezone: config.timezone,
    maxAgeHours: () => config.push.maxAgeHours,
  });
  const history = new ChatHistory(db);
  const warnings = budgetWarnings(
    { budget: usage.budget, push, settings, clock, logger, users: () => history.users() },
    { costs: config.costs, language: config.persona.language },
  );
  usage.afterCall(() => background.run("budget warning", () => warnings.check()));
  const correctionLog = new CorrectionLog(db, memory, clock);
  const { chatRecall, chatSearch, messageVectors, concepts, chatKeywords } = wireChatRecall(config, {
    db,
    clock,
    logger,
    memory,
    embedder,
    index,
    reranker: ports.reranker,
    lexicon: ports.lexicon,
    tuning: ports.tuning,
  });
  const looks = createLookups(config.lookup, db, clock, logger, ports.webSearch);
  const inbox = new InboxStore(db);
  const jobs = new JobsStore(db);
  const durable = new DurableJobs(jobs, background, clock, logger, config.inbox.jobMaxAttempts);
  const persona = createPersona(config.persona);
  // Resolved once: every part that reads markers is handed this registry, so a marker added through the ports is honoured everywhere.
  const markers = ports.markers ?? MARKERS;
  const { chatLog, profile, shortTerm, rules, problems, topics, suggestions } = stores;
  // Issue 19: receipts, boundaries and forget everywhere.
  const forgetRows = new ForgetRows(db);
  const receiptsStore = new ReceiptsStore(db);
  const receipts = new Receipts({ store: receiptsStore, memory, rows: forgetRows, rules });
  const boundaries = new BoundariesStore(db);
  const boundaryGuard = new BoundaryGuard(boundaries);
  const language = config.persona.language;
  const forgetting = new Forgetting({ memory, rows: forgetRows, receipts: receiptsStore, messageVectors, clock, language });
  questions.register(forgetQuestionHandler(forgetting, language));
  questions.register(boundaryQuestionHandler(boundaries, language));
  const feedback = { memory, profile, rules, log: correctionLog, clock, timezone: config.timezone };
  questions.register(wrongQuestionHandler(feedback, language));
  const services: Services = {
    config,
    live,
    clock,
    logger,
    db,
    embedder,
    index,
    memory,
    models,
    contacts,
    background,
    chatLog,
    history,
    profile,
    shortTerm,
    rules,
    topics,
    suggestions,
    settings,
    problems,
    questions,
    correctionLog,
    push,
    chatSearch,
    messageVectors,
    chatRecall,
    lookups: looks.lookups,
    tools: looks.tools,
    news: looks.news,
    searchLog: looks.searchLog,
    inbox,
    jobs,
    durable,
    persona,
    markers,
    budget: usage.budget,
    receipts,
    boundaries,
    boundaryGuard,
    forgetting,
  };
  const turn = createChatTurn(chatTurnParts(services, ports.steps));
  const features = backgroundFeatures(services);
  const importDeps = { db, memory, embedder, index };
  const deliveryState = (state: "delivered" | "failed") => (answerId: number) => inbox.setDelivery(answerId, state, clock.now().toISOString());
  push.setDeliveredHandler(features.delivered);

  const lilo: Lilo = {
    config,
    live,
    clock,
    logger,
    transcriber: ports.transcriber ?? createTranscriber(config.media),
    handleMessage: (message) => turn.handle(message),
    retry: (userId) => turn.retry(userId),
    inbox: {
      receive: (message) => {
        const got = turn.receive(message);
        return { messageId: got.message.id, duplicate: got.duplicate };
      },
      complete: (messageId, text) => inbox.completeText(messageId, normalizeText(text).trim(), clock.now().toISOString()),
      dismiss: (messageId) => inbox.dismiss(messageId, clock.now().toISOString()),
      unfinished: (transport) => inbox.unfinished(transport),
      finish: (messageId) => turn.finish(messageId),
      delivered: deliveryState("delivered"),
      deliveryFailed: deliveryState("failed"),
      resumeJobs: () => durable.runPending(),
    },
    // Outside a turn the chat log's newest messages are embedded first; a turn leaves that to its after-reply job.
    preview: async (message) => (await concepts.ready(), await messageVectors.catchUp(message.userId), turn.preview(message)),
    memory: memoryApi(memory),
    profile: profileApi(stores.profile, clock),
    rules: rulesApi(stores.rules, clock),
    topics: topicsApi(stores.topics, clock),
    suggestions: suggestionsApi(stores.suggestions, clock),
    transfer: transferApi(db, importDeps, clock),
    backup: backupApi(db, config, clock),
    settings: createSettingsApi({ config, live, store: settings, models, now: () => clock.now().toISOString() }),
    recall: {
      passages: async (text, o) => (
        await concepts.ready(),
        await messageVectors.catchUp(o.userId),
        recallPassages(chatRecall, text, { ...o, vector: await memory.embed(text) })
      ),
      rank: async (text, o) => (
        await concepts.ready(),
        await messageVectors.catchUp(o.userId),
        rankMessages(chatRecall, text, { ...o, vector: await memory.embed(text) })
      ),
      importChat: (messages) => importMessages(db, stores.chatLog, messages, config.memory.conversationPauseMinutes),
      indexMessages: async (userId) => {
        const embedded = await messageVectors.catchUpAll(userId);
        await chatKeywords?.whenReady(userId);
        await concepts.ready();
        return embedded;
      },
    },
    questions: {
      pending: (userId) => questions.pending(userId),
      get: (id) => questions.get(id),
      ask: (userId, kind, payload, text, ttlMs) => questions.ask(userId, kind, payload, text, ttlMs),
      answer: (userId, questionId, answer) => questions.answer(userId, questionId, answer),
    },
    why: whyApi(receipts, feedback, { questions, language, questionTtlMinutes: config.questions.ttlMinutes }),
    forget: forgetApi(forgetting, questions, { language, questionTtlMinutes: config.questions.ttlMinutes }),
    boundaries: boundariesApi(boundaries, clock),
    corrections: {
      list: (opts) => correctionLog.list(opts),
      get: (id) => correctionLog.get(id),
      undo: (id) => correctionLog.undo(id),
    },
    push,
    diary: features.diary,
    reflection: features.reflection,
    greeting: features.greeting,
    analysis: features.analysis,
    knownUsers: () => history.users(),
    models: {
      chatSpec: () => models.chatSpec(),
      switchChat: (value, now) => models.switchChat(value, now),
      checkChat: () => models.checkOffered(models.chatSpec()),
      acceptsImages: () => acceptsImages(config.media, models.chatSpec()),
      resetChat: () => models.resetChat(),
      forRole: (role) => models.forRole(role),
    },
    lookups: { searchLog: looks.searchLog, news: newsApi(looks.news), tools: looks.tools },
    maintenance: maintenanceApi(memory, index, embedder, stores.problems, jobs, clock, messageVectors),
    contacts,
    usage: usageApi({
      ledger: usage.ledger,
      budget: usage.budget,
      clock,
      timeZone: config.timezone,
      currency: () => config.costs.currency,
      checkBudget: () => warnings.check(),
    }),
    webAccess: webAccessApi(new WebTokensStore(db), clock),
    warmUp: () => memory.init(),
    idle: () => background.idle(),
    close: async () => {
      await push.stopDelivery();
      await background.idle();
      chatKeywords?.close();
      memoryKeywords?.close();
      await index.close();
      await localModels.close();
      await checkpoints?.stop();
      if (!ports.db) db.close();
    },
  };
  return lilo;
}

/** The news feeds as callers see them: the feed list, fetching, search, how many items are stored. */
function newsApi(news: News): NewsApi {
  return {
    available: () => news.available(),
    list: () => news.list(),
    add: (url) => news.add(url),
    remove: (url) => news.remove(url),
    fetchAll: () => news.fetchAll(),
    search: (query, limit) => news.search(query, limit),
    newest: (limit) => news.newest(limit),
    itemCount: () => news.store.count(),
  };
}

function defaultIndex(config: LiloConfig, db: Db, logger: Logger): VectorIndex {
  if (config.vector.backend === "qdrant" && config.vector.qdrantUrl) {
    const options = {
      url: config.vector.qdrantUrl,
      collection: config.vector.collection,
      ...(config.vector.qdrantApiKey ? { apiKey: config.vector.qdrantApiKey } : {}),
    };
    const name = `qdrant (${options.url}, collection ${options.collection ?? "lilo"})`;
    return lazyVectorIndex(name, async () => new (await import("../foundation/providers/qdrant-index.ts")).QdrantIndex(options));
  }
  // The sqlite-vec backend is gone; its tables are taken over by the embedded index on this start.
  if (config.vector.removedBackend) {
    logger.warn("LILO_VECTOR_BACKEND=sqlite-vec is no longer supported and is read as embedded; set LILO_VECTOR_BACKEND=embedded (or remove the line) in .env");
  }
  return new EmbeddedIndex(db, {
    graphMinSize: config.vector.graphMinSize,
    messageGraphMinSize: config.vector.messageGraphMinSize,
    residualBudgetMb: config.vector.residualMb,
  });
}
