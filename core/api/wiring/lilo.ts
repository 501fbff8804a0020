/**
 * Lilo's use cases over the built services: the object `createLilo` hands
 * out, with the chat turn, the inbox, the chat-log recall and every use-case
 * API, each handed only the services it works on.
 */
import { configuredDataKey } from "../../foundation/store/data-key.ts";
import type { Transcriber } from "../../foundation/ports/transcriber.ts";
import type { VoiceApi } from "../voice-api.ts";
import type { Health } from "./health.ts";
import type { LiveSettings } from "../../foundation/settings/live-settings.ts";
import type { Questions } from "../../conversation/questions/questions.ts";
import type { CorrectionLog } from "../../conversation/correction/correction-log.ts";
import type { DurableJobs } from "../../foundation/util/durable-jobs.ts";
import type { SearchLog } from "../../foundation/store/search-log.ts";
import type { ToolCalling } from "../../lookups/tool-calling.ts";
import type { News } from "../../lookups/news.ts";
import { importMessages } from "../../foundation/store/chat-import.ts";
import { normalizeText } from "../../foundation/util/text.ts";
import { rankMessages, recallPassages } from "../../memory/recall/sheet-recall.ts";
import type { CorrectionsApi, InboxApi, Lilo, RecallApi } from "../lilo-api.ts";
import type { ChatTurn } from "../pipeline.ts";
import { createSettingsApi } from "../settings-api.ts";
import { memoryApi } from "../memory-api.ts";
import { profileApi } from "../profile-api.ts";
import { rulesApi } from "../rules-api.ts";
import { topicsApi } from "../topics-api.ts";
import { suggestionsApi } from "../suggestions-api.ts";
import { backupApi } from "../backup-api.ts";
import { transferApi } from "../transfer-api.ts";
import { historyApi } from "../history-api.ts";
import { maintenanceApi } from "../maintenance-api.ts";
import { usageApi } from "../usage-api.ts";
import { webAccessApi } from "../web-access-api.ts";
import { deviceKeysApi } from "../device-keys-api.ts";
import { runningPagesApi } from "../running-pages-api.ts";
import { whyApi } from "../why-api.ts";
import { forgetApi } from "../forget-api.ts";
import { boundariesApi } from "../boundaries-api.ts";
import { questionsApi } from "../questions-api.ts";
import { modelsApi } from "../models-api.ts";
import { newsApi } from "../lookups-api.ts";
import type { Foundation } from "./foundation.ts";
import type { Stores } from "./stores.ts";
import type { Remembering } from "./memory.ts";
import type { Modelling } from "./models.ts";
import type { Pushing } from "./push.ts";
import type { MemoryCare } from "./memory-care.ts";
import type { BackgroundFeatures } from "./features.ts";
import type { RemindersApi } from "../reminders-api.ts";
import { ConfigError } from "../../foundation/errors.ts";
import { costOf, priceOf } from "../../foundation/usage/prices.ts";

/** Everything the use cases work on, built by `createLilo`. */
interface LiloParts {
  foundation: Foundation;
  live: LiveSettings;
  stores: Stores;
  remembering: Remembering;
  modelling: Modelling;
  pushing: Pushing;
  care: MemoryCare;
  questions: Questions;
  durable: DurableJobs;
  lookups: { searchLog: SearchLog; news: News; tools: ToolCalling };
  turn: ChatTurn;
  features: BackgroundFeatures;
  reminders: RemindersApi;
  transcriber: Transcriber | undefined;
  /** Voice replies. */
  speech: VoiceApi;
  /** The timed chat turn and the health use cases. */
  health: Health;
  /** Stops push delivery, waits for background work, closes the indexes, the local models and the database. */
  close(): Promise<void>;
}

/** The `Lilo` object over its parts. */
export function assembleLilo(p: LiloParts): Lilo {
  const { config, clock, logger, db, background } = p.foundation;
  const { stores, remembering, care, turn, features } = p;
  const { memory, messageVectors, concepts } = remembering;
  const { models, usage } = p.modelling;
  const { push, warnings } = p.pushing;
  const language = config.persona.language;
  const ask = { questions: p.questions, language, questionTtlMinutes: config.questions.ttlMinutes };
  return {
    config,
    live: p.live,
    clock,
    logger,
    transcriber: p.transcriber,
    voice: p.speech,
    handleMessage: (message, options) => p.health.handleMessage(message, options),
    retry: (userId, options) => turn.retry(userId, options),
    inbox: inboxApi(p),
    // Outside a turn the chat log's newest messages are embedded first; a turn leaves that to its after-reply job.
    preview: async (message) => (await concepts.ready(), await messageVectors.catchUp(message.userId), turn.preview(message)),
    memory: memoryApi(memory),
    profile: profileApi(stores.profile, clock),
    rules: rulesApi(stores.rules, clock),
    topics: topicsApi(stores.topics, clock),
    suggestions: suggestionsApi(stores.suggestions, clock),
    transfer: transferApi(
      db,
      { db, memory, embedder: remembering.embedder, index: remembering.index },
      clock,
      config.budget.maxInputChars,
      configuredDataKey(config),
    ),
    history: historyApi({
      imports: stores.historyImports,
      forgetting: care.forgetting,
      clock,
      timeZone: config.timezone,
      pauseMinutes: config.memory.conversationPauseMinutes,
      userNames: config.persona.userNames,
      extraction: features.historyExtraction,
      price: (inputTokens, outputTokens) => extractionPrice(p.modelling, inputTokens, outputTokens),
      maxInputChars: config.budget.maxInputChars,
      followupRecentDays: config.topics.importRecentDays,
      assistantName: config.persona.name,
      language,
    }),
    backup: backupApi(db, config, clock, stores.deviceKeys, configuredDataKey(config)),
    settings: createSettingsApi({
      config,
      live: p.live,
      store: stores.settings,
      models,
      now: () => clock.now().toISOString(),
      outOfUse: (key) => p.modelling.contacts.outOfUse(key),
    }),
    recall: recallApi(p),
    questions: questionsApi(p.questions),
    why: whyApi(care.receipts, care.feedback, ask),
    forget: forgetApi(care.forgetting, p.questions, { language, questionTtlMinutes: config.questions.ttlMinutes }),
    boundaries: boundariesApi(care.boundaries, clock),
    corrections: correctionsApi(care.correctionLog),
    push,
    reminders: p.reminders,
    diary: features.diary,
    reflection: features.reflection,
    greeting: features.greeting,
    analysis: features.analysis,
    knownUsers: () => stores.history.users(),
    models: modelsApi(models, config),
    lookups: { searchLog: p.lookups.searchLog, news: newsApi(p.lookups.news), tools: p.lookups.tools },
    maintenance: maintenanceApi(memory, remembering.index, remembering.embedder, stores.problems, stores.jobs, clock, messageVectors, {
      gate: remembering.gate,
      record: remembering.recallState,
    }),
    contacts: p.modelling.contacts,
    usage: usageApi({
      ledger: usage.ledger,
      budget: usage.budget,
      clock,
      timeZone: config.timezone,
      currency: () => config.costs.currency,
      checkBudget: () => warnings.check(),
    }),
    webAccess: webAccessApi(stores.webTokens, runningPagesApi(stores.settings, clock), clock),
    deviceKeys: deviceKeysApi(stores.deviceKeys, clock),
    // Without the embedding model Lilo starts anyway and recalls by words (the gate logs it once).
    warmUp: async () => {
      if (await memory.canEmbed()) await memory.init();
    },
    started: () => remembering.index.startUpkeep?.(),
    idle: () => background.idle(),
    health: p.health.health,
    cancelModelCalls: () => p.modelling.gate.cancel(),
    close: p.close,
  };
}

/** The extraction role's model and what these tokens cost on it; a Lilo without a model configured has neither. */
function extractionPrice(m: Modelling, inputTokens: number, outputTokens: number): { model: string | undefined; cost: number | undefined } {
  let model: { provider: string; model: string };
  try {
    model = m.models.forRole("extraction");
  } catch (err) {
    if (err instanceof ConfigError) return { model: undefined, cost: undefined };
    throw err;
  }
  const price = priceOf(m.usage.prices, model.provider, model.model);
  const cost = price && costOf(price, { inputTokens, outputTokens, cachedInputTokens: 0, cacheWriteTokens: 0 });
  return { model: `${model.provider}:${model.model}`, cost };
}

/** The durable inbox: the turn stores and finishes messages; the inbox store keeps their reply and delivery state. */
function inboxApi(p: Pick<LiloParts, "foundation" | "stores" | "turn" | "durable">): InboxApi {
  const { clock } = p.foundation;
  const { inbox } = p.stores;
  const { turn } = p;
  const deliveryState = (state: "delivered" | "failed") => (answerId: number) => inbox.setDelivery(answerId, state, clock.now().toISOString());
  return {
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
    resumeJobs: () => p.durable.runPending(),
  };
}

/** The chat-log search as a use case: the concept lexicon and the user's message vectors catch up before each search. */
function recallApi(p: Pick<LiloParts, "foundation" | "stores" | "remembering">): RecallApi {
  const { config, db } = p.foundation;
  const { memory, messageVectors, concepts, chatRecall, chatKeywords } = p.remembering;
  return {
    passages: async (text, o) => (
      await concepts.ready(),
      await messageVectors.catchUp(o.userId),
      recallPassages(chatRecall, text, { ...o, vector: await memory.vectorFor(text) })
    ),
    rank: async (text, o) => (
      await concepts.ready(),
      await messageVectors.catchUp(o.userId),
      rankMessages(chatRecall, text, { ...o, vector: await memory.vectorFor(text) })
    ),
    importChat: (messages) => importMessages(db, p.stores.chatLog, messages, config.memory.conversationPauseMinutes),
    indexMessages: async (userId) => {
      const embedded = await messageVectors.catchUpAll(userId);
      await chatKeywords?.whenReady(userId);
      await concepts.ready();
      return embedded;
    },
  };
}

/** The correction log, each entry undoable. */
function correctionsApi(log: CorrectionLog): CorrectionsApi {
  return {
    list: (opts) => log.list(opts),
    get: (id) => log.get(id),
    undo: (id) => log.undo(id),
  };
}
