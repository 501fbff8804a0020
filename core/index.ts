/**
 * Lilo's public surface, the only module of the core that adapters, jobs, the
 * CLI and library users import (test/architecture/boundaries.test.ts keeps it
 * so): `createLilo` and the `Lilo` interface with its use cases (README "Using
 * Lilo as a library"), the ports a caller may implement, configuration,
 * errors, and the few helpers the outer layers share with the core.
 *
 * The CLI's bundle (admin-cli/build.js) gives each static import of this file
 * a module of its own that re-exports only the names imported, so `lilo --help`
 * loads none of createLilo and what is behind it.
 */

// The entry point and the use-case API. The use cases' own interfaces (core/api/*-api.ts) are reached
// through `Lilo` (`Lilo["memory"]`); only the types a caller has to spell are exported by name.
export { createLilo, type LiloPorts } from "./api/create-lilo.ts";
export type { Lilo } from "./api/lilo-api.ts";
export type { AnalysisApi, AnalysisOptions, AnalysisResult } from "./api/analysis-api.ts";
export type { SettingRow } from "./api/settings-api.ts";
export type { ThoughtEntry } from "./api/reflection-api.ts";
export type { GreetingPreview } from "./api/greeting-api.ts";
export { formatMoney, formatTokens, spendOfLimit } from "./foundation/usage/spend.ts";
export type { UsageApi, UsageSummary, UsageOverview, UsageGrouping, UsageRow, UsageTotals, BudgetStatus, PeriodBudget } from "./api/usage-api.ts";
export type { WebAccessApi, Redeemed, LinkRefusal } from "./api/web-access-api.ts";
export type { WhyItem, WhyView, WhyAction, Verdict, VerdictOutcome } from "./api/why-api.ts";
export type { ForgetItem, ForgetOutcome, ForgetPlan } from "./api/forget-api.ts";
export { itemRef } from "./memory/receipts/item-ref.ts";
export { ITEM_NAMES, itemName, type ItemKind } from "./memory/receipts/item-names.ts";
export type { Boundary } from "./api/boundaries-api.ts";
export type { Provenance, ProvenanceKind } from "./foundation/store/provenance.ts";

// Names the use cases take (the CLI offers them as choices before any core code runs).
export { ANY_USER, EXPORT_STORES, DEDUPE_STORES, type ExportStore, type DedupeStore } from "./api/names.ts";
export { IMPORT_STORES, type ImportStore } from "./memory/transfer/import-stores.ts";
export { VECTOR_STORES, type VectorStore } from "./foundation/ports/vector-index.ts";

// What the use cases hand out and take.
export type { IncomingMessage, TurnResult, Question, TurnMiddleware, TurnContext } from "./conversation/turn/types.ts";
export type { MemoryHit } from "./memory/memory.ts";
export type { MemoryEntry, MemoryOwner } from "./api/memory-api.ts";
export type { Rule } from "./foundation/store/rules.ts";
export type { Topic } from "./foundation/store/topics.ts";
export type { ProfileEntry } from "./foundation/store/profile.ts";
export type { DiaryEntry } from "./api/diary-api.ts";
export type { MemoryBlocks, SheetPassage } from "./conversation/turn/memory-blocks.ts";
export { sheetMessageIds } from "./conversation/turn/memory-blocks.ts";
export type { PushOutcome } from "./background/push/push.ts";
export type { Answer } from "./conversation/questions/questions.ts";
export type { CorrectionEntry, UndoneCorrection } from "./conversation/correction/correction-log.ts";
export type { ContactStatus } from "./foundation/health/contacts.ts";
export type { DiaryResult, DiaryReason } from "./background/diary/write-diary.ts";
export type { ReflectionResult, ReflectionReason } from "./background/reflection/reflect.ts";
export type { ConcernOutcome } from "./background/reflection/concerns.ts";
export type { GreetingResult, GreetingReason } from "./background/greeting/greet.ts";
export { MOODS, MOOD_NAMES, type Mood } from "./conversation/markers/emotion.ts";
export { ON_DEMAND_TEXTS, noDiaryText, noThoughtText, type OnDemandTexts } from "./background/prompts/on-demand-texts.ts";

// Ports a caller may implement (createLilo's second argument), and the ready ones.
export type { Clock } from "./foundation/ports/clock.ts";
export { fixedClock, systemClock } from "./foundation/ports/clock.ts";
export type { Logger } from "./foundation/ports/logger.ts";
export { consoleLogger, silentLogger } from "./foundation/ports/logger.ts";
export type { Embedder } from "./foundation/ports/embedder.ts";
export type { Reranker } from "./foundation/ports/reranker.ts";
export type { VectorIndex, VectorIndexState } from "./foundation/ports/vector-index.ts";
export type { CallPurpose, ChatModel, ChatRequest, ChatResponse, ImageInput } from "./foundation/ports/chat-model.ts";
export type { WebSearch, SearchResult } from "./foundation/ports/web-search.ts";
export type { Transport, PushMessage, PushTarget } from "./foundation/ports/transport.ts";
export type { AudioInput, Transcriber } from "./foundation/ports/transcriber.ts";

// Configuration.
export { loadConfig, requireModel, NO_MODEL_HELP, type LiloConfig, type ModelRole, type ModelSpec } from "./foundation/config/config.ts";
export { loadConfigFromEnv, liloPlace, readEnvFile, type LiloPlace } from "./foundation/config/load.ts";
export { installDir } from "./foundation/config/install-dir.ts";
export { checkValue, configTable } from "./foundation/config/table.ts";
export { listModels } from "./foundation/providers/model-list.ts";
export { OPENAI_COMPATIBLE_VENDORS, type ProviderSettings } from "./foundation/config/providers.ts";
export { renderEnvExample } from "./foundation/config/env-example.ts";
export { configGroups } from "./foundation/config/groups.ts";
export { configSection, sectionOf, type ConfigSection, type SectionValues } from "./foundation/config/section.ts";
// The leaf rules an adapter's section is written with, the same the core's table uses.
export { setting as configLeaf, opt as optionalText, url as optionalUrl, int as wholeNumber, bool as configFlag } from "./foundation/config/rules.ts";

// Lilo's own model (LILO_CHAT_MODEL=local:<name>): the catalogue the setup offers with download sizes, and the engine port.
export { LOCAL_MODELS, DEFAULT_LOCAL_MODEL, type LocalModelEntry } from "./foundation/providers/local/catalogue.ts";
export { LocalModels, type LocalConfig } from "./foundation/providers/local/local-models.ts";

// Errors.
export { LiloError, ConfigError, ModelSwitchError, ProviderError, EmbedderError, VectorIndexError } from "./foundation/errors.ts";
export { NotFoundError, LookupError, AnalysisError } from "./foundation/errors.ts";
export { describeError, type ErrorCode } from "./foundation/errors.ts";
// One way to tell a user an error: a sentence by key (`said`), said in the persona's language by describeError(err, language).
export { said, type Said, type ErrorLanguage } from "./foundation/error-texts.ts";

// Shared with the adapters: one retry policy (capped backoff with jitter) for loops without an SDK of their own.
export { withRetry, type Sleep } from "./foundation/util/retry.ts";

// What the outer layers share with the core: one writer per database, private file modes, secret redaction.
export { WriterLock, liveHolder } from "./foundation/store/writer-lock.ts";
export { ensurePrivateDir, makePrivate, openToOthers, PRIVATE_FILE_MODE } from "./foundation/util/file-modes.ts";
export { redactSecrets } from "./foundation/util/redact.ts";
// Well-formed text: what the core stores and answers, and what the adapters send (pushes, notes shown by commands).
export { normalizeText } from "./foundation/util/text.ts";
