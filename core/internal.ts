/**
 * What Lilo's own outer layers (adapters/, jobs/, admin-cli/, app.ts and
 * main.ts) take from the core besides core/index.ts: the use cases' row and
 * outcome types they render, the names the CLI offers as choices, the
 * configuration table and its leaf rules, formatting, file modes, the writer
 * lock. A program that embeds Lilo must not import it: its names change with
 * Lilo's own commands and pages, with no promise of stability
 * (docs/library.md).
 *
 * The CLI's bundle (admin-cli/build.js) splits each static import of this
 * file like those of core/index.ts, so `lilo --help` loads only the files of
 * the names imported.
 */

// What the use cases hand out and take, as the adapters and the CLI show them.
export type { AnalysisOptions, AnalysisResult } from "./api/analysis-api.ts";
export type { SettingRow } from "./api/settings-api.ts";
export type { ThoughtEntry } from "./api/reflection-api.ts";
export type { GreetingPreview } from "./api/greeting-api.ts";
export type { UsageSummary, UsageOverview, UsageGrouping, UsageRow, UsageTotals, BudgetLift, BudgetStatus } from "./api/usage-api.ts";
export type { WhyItem, WhyView, Verdict, VerdictOutcome } from "./api/why-api.ts";
export type { ForgetItem, ForgetOutcome, ForgetPlan } from "./api/forget-api.ts";
export type { MemoryOwner } from "./api/memory-api.ts";
export type { Provenance } from "./foundation/store/provenance.ts";
export type { Rule } from "./foundation/store/rules.ts";
export type { Topic } from "./foundation/store/topics.ts";
export type { Reminder, ReminderOutcome, ReminderRefusal, Snooze } from "./api/reminders-api.ts";
export type { ProfileEntry } from "./foundation/store/profile.ts";
export type { MemoryBlocks, SheetPassage } from "./conversation/turn/memory-blocks.ts";
export type { PushOutcome } from "./background/push/push.ts";
export type { Answer } from "./conversation/questions/questions.ts";
export type { CorrectionEntry } from "./conversation/correction/correction-log.ts";
export type { ContactStatus } from "./foundation/health/contacts.ts";
export type { EmbeddingStatus } from "./memory/embedding-status.ts";
export { recallLine } from "./memory/recall-line.ts";
export type { DiaryResult, DiaryReason } from "./background/diary/write-diary.ts";
export type { ReflectionResult, ReflectionReason } from "./background/reflection/reflect.ts";
export type { ConcernOutcome } from "./background/reflection/concerns.ts";
export type { GreetingReason } from "./background/greeting/greet.ts";
export { MOOD_NAMES, type Mood } from "./conversation/markers/emotion.ts";
export { noDiaryText, noThoughtText } from "./background/prompts/on-demand-texts.ts";
export { itemRef } from "./memory/receipts/item-ref.ts";
export { itemName } from "./memory/receipts/item-names.ts";
export { groupWhyItems, type WhyGroup } from "./memory/receipts/why-groups.ts";
export { formatMoney, formatTokens, spendOfLimit } from "./foundation/usage/spend.ts";

// Names the use cases take (the CLI offers them as choices before any core code runs).
export { EXPORT_STORES, DEDUPE_STORES, type ExportStore, type DedupeStore } from "./api/names.ts";
export { IMPORT_STORES, type ImportStore } from "./memory/transfer/import-stores.ts";
// From the file that defines it: the CLI's start loads the value alone, not the import's use cases behind history-api.ts.
export { HISTORY_FORMATS, type HistoryFormat } from "./memory/history/history-types.ts";
export type { HistoryDryRun, HistoryExtractionProgress } from "./api/history-api.ts";
export { VECTOR_STORES, type VectorStore, type VectorIndexState } from "./foundation/ports/vector-index.ts";

// Configuration: the start-up checks, Lilo's home, the table behind `.env.example` and `lilo settings`.
export { requireModel, NO_MODEL_HELP } from "./foundation/config/config.ts";
export { liloPlace } from "./foundation/config/load.ts";
export { installDir } from "./foundation/config/install-dir.ts";
export { checkValue, configTable } from "./foundation/config/table.ts";
export { listModels } from "./foundation/providers/model-list.ts";
export { OPENAI_COMPATIBLE_VENDORS, type ProviderSettings } from "./foundation/config/providers.ts";
export { renderEnvExample } from "./foundation/config/env-example.ts";
export { configGroups } from "./foundation/config/groups.ts";
export { configSection, sectionOf, type ConfigSection, type SectionValues } from "./foundation/config/section.ts";
// The leaf rules an adapter's section is written with, the same the core's table uses.
export { setting as configLeaf, opt as optionalText, url as optionalUrl, int as wholeNumber, bool as configFlag } from "./foundation/config/rules.ts";

// Lilo's own model (LILO_CHAT_MODEL=local:<name>): the catalogue the setup offers, and the engine with its download progress.
export { LOCAL_MODELS, catalogueEntry, localModelProblem, DEFAULT_LOCAL_MODEL, type LocalModelEntry } from "./foundation/providers/local/catalogue.ts";
export { LocalModels } from "./foundation/providers/local/local-models.ts";
// The setup fetches a catalogue model before the first chat, through the same resumable, verified download.
export { ensureModelFile } from "./foundation/providers/local/model-file.ts";
export { DEFAULT_EMBEDDING_MODELS } from "./foundation/config/config.ts";
export { loggedProgress, type DownloadStep } from "./foundation/providers/local/download-progress.ts";

// One retry policy (capped backoff with jitter) for the adapters' loops without an SDK of their own.
export { withRetry, type Sleep } from "./foundation/util/retry.ts";

// One writer per database, private file modes, secret redaction, well-formed text.
export { WriterLock, liveHolder } from "./foundation/store/writer-lock.ts";
// The database's key at rest: a new one for the setup, converting an install to it (`lilo encrypt`, `lilo rekey`).
export { generateDataKey } from "./foundation/store/data-key.ts";
export { convertInstall, CONVERSION_PHASES, type ConversionItem, type ConversionPhase } from "./api/convert-install.ts";
export { ensurePrivateDir, makePrivate, openToOthers, PRIVATE_FILE_MODE } from "./foundation/util/file-modes.ts";
export { redactSecrets } from "./foundation/util/redact.ts";
export { normalizeText } from "./foundation/util/text.ts";
// A model call ended because Lilo stops (adapters say nothing then: the message is answered after the restart).
export { isCancelled } from "./foundation/models/call-gate.ts";
export type { VoiceMode, VoiceReply } from "./api/voice-api.ts";
export { SPEECH_TEXTS } from "./conversation/speech/speech-texts.ts";
// The bot warns once at start when her memory lies unencrypted.
export { isEncryptedFile } from "./foundation/store/db.ts";
