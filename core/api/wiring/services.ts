/**
 * The services of one Lilo, built ONCE in the composition root
 * (core/api/create-lilo.ts). The wiring functions beside this file build
 * every middleware's and every feature's narrow dependencies from it; no
 * callee is handed this whole record.
 */
import type { LiloConfig } from "../../foundation/config/config.ts";
import type { Clock } from "../../foundation/ports/clock.ts";
import type { Embedder } from "../../foundation/ports/embedder.ts";
import type { VectorIndex } from "../../foundation/ports/vector-index.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import type { Db } from "../../foundation/store/db.ts";
import type { ChatLog } from "../../foundation/store/chat-log.ts";
import type { ProfileStore } from "../../foundation/store/profile.ts";
import type { ShortTermStore } from "../../foundation/store/short-term.ts";
import type { RulesStore } from "../../foundation/store/rules.ts";
import type { SettingsStore } from "../../foundation/store/settings.ts";
import type { ModelProblems } from "../../foundation/store/model-problems.ts";
import type { TopicsStore } from "../../foundation/store/topics.ts";
import type { SuggestionsStore } from "../../foundation/store/suggestions.ts";
import type { ChatHistory } from "../../foundation/store/chat-history.ts";
import type { InboxStore } from "../../foundation/store/inbox.ts";
import type { JobsStore } from "../../foundation/store/jobs.ts";
import type { SearchLog } from "../../foundation/store/search-log.ts";
import type { LiveSettings } from "../../foundation/settings/live-settings.ts";
import type { Contacts } from "../../foundation/health/contacts.ts";
import type { ModelRegistry } from "../../foundation/models/registry.ts";
import type { BackgroundTasks } from "../../foundation/util/background.ts";
import type { DurableJobs } from "../../foundation/util/durable-jobs.ts";
import type { Memory } from "../../memory/memory.ts";
import type { ChatSearch } from "../../memory/recall/search.ts";
import type { ChatRecallDeps } from "../../memory/recall/sheet-recall.ts";
import type { MessageVectors } from "../../memory/recall/message-vectors.ts";
import type { Lookups } from "../../lookups/lookups.ts";
import type { ToolCalling } from "../../lookups/tool-calling.ts";
import type { News } from "../../lookups/news.ts";
import type { Persona } from "../../conversation/persona/persona.ts";
import type { Questions } from "../../conversation/questions/questions.ts";
import type { CorrectionLog } from "../../conversation/correction/correction-log.ts";
import type { MarkerRegistry } from "../../conversation/markers/marker-registry.ts";
import type { Push } from "../../background/push/push.ts";
import type { Budget } from "../../foundation/usage/budget.ts";
import type { Receipts } from "../../memory/receipts/receipts.ts";
import type { BoundariesStore } from "../../foundation/store/boundaries.ts";
import type { BoundaryGuard } from "../../memory/boundaries/boundaries.ts";
import type { Forgetting } from "../../memory/forgetting/forget-everywhere.ts";

/** Every service of one Lilo, each built once. */
export interface Services {
  /** This Lilo's own copy of the configuration (live settings write into it). */
  config: LiloConfig;
  live: LiveSettings;
  clock: Clock;
  logger: Logger;
  db: Db;
  embedder: Embedder;
  index: VectorIndex;
  memory: Memory;
  models: ModelRegistry;
  contacts: Contacts;
  background: BackgroundTasks;
  chatLog: ChatLog;
  history: ChatHistory;
  profile: ProfileStore;
  shortTerm: ShortTermStore;
  rules: RulesStore;
  topics: TopicsStore;
  suggestions: SuggestionsStore;
  settings: SettingsStore;
  problems: ModelProblems;
  questions: Questions;
  correctionLog: CorrectionLog;
  push: Push;
  /** The chat log searched by [RECALL:], and with its meaning side for the sheet's passages. */
  chatSearch: ChatSearch;
  messageVectors: MessageVectors;
  chatRecall: ChatRecallDeps;
  /** Web search, fetch_url and news for the lookup markers and tools. */
  lookups: Lookups;
  /** Which chat models get native tool calls. */
  tools: ToolCalling;
  news: News;
  searchLog: SearchLog;
  /** User messages as an inbox (reply state) and answers' delivery state. */
  inbox: InboxStore;
  jobs: JobsStore;
  /** Runs the after-reply jobs recorded with each answer. */
  durable: DurableJobs;
  persona: Persona;
  /** The markers understood everywhere: `LiloPorts.markers` or Lilo's own, resolved once. */
  markers: MarkerRegistry;
  /** The day and month budgets against the usage ledger. */
  budget: Budget;
  /** What each answer's sheet held (/why). */
  receipts: Receipts;
  /** Topics the user asked Lilo never to bring up, and the check every speaking job reads. */
  boundaries: BoundariesStore;
  boundaryGuard: BoundaryGuard;
  /** Forget everywhere. */
  forgetting: Forgetting;
}
