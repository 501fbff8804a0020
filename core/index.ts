/**
 * Lilo's public surface: `createLilo` and the types of its use-case API (see
 * README "Library use"), the ports a caller may implement, configuration and
 * errors. The composition root is `lilo.ts`; the use cases live in `api/`.
 */
export { createLilo, type LiloPorts } from "./api/create-lilo.ts";
export type { Lilo } from "./api/lilo-api.ts";
export { ANY_USER, type MemoryEntry } from "./api/memory-api.ts";
export { WriterLock } from "./foundation/store/writer-lock.ts";
export { EXPORT_STORES, type ExportStore } from "./foundation/store/export-lines.ts";
export { DEDUPE_STORES, type DedupeStore } from "./memory/duplicates.ts";

export * from "./foundation/config/config.ts";
export { loadConfigFromEnv } from "./foundation/config/load.ts";
export * from "./foundation/errors.ts";
export type { IncomingMessage, TurnResult, Question, TurnMiddleware, TurnContext } from "./conversation/turn/types.ts";
export type { MemoryHit } from "./memory/memory.ts";
export type { MemoryBlocks, SheetPassage } from "./conversation/turn/memory-blocks.ts";
export type { Clock } from "./foundation/ports/clock.ts";
export { fixedClock, systemClock } from "./foundation/ports/clock.ts";
export type { Embedder } from "./foundation/ports/embedder.ts";
export type { VectorIndex, VectorIndexState, VectorStore } from "./foundation/ports/vector-index.ts";
export { VECTOR_STORES } from "./foundation/ports/vector-index.ts";
export type { ChatModel, ChatRequest, ChatResponse } from "./foundation/ports/chat-model.ts";
export type { Logger } from "./foundation/ports/logger.ts";
export type { WebSearch, SearchResult } from "./foundation/ports/web-search.ts";
export type { Transport, PushMessage, PushTarget } from "./foundation/ports/transport.ts";
export type { PushOutcome, PushResult } from "./background/push/push.ts";
export type { Answer } from "./conversation/questions/questions.ts";
export type { CorrectionEntry } from "./conversation/correction/correction-log.ts";
export { consoleLogger, silentLogger } from "./foundation/ports/logger.ts";
export { redactSecrets } from "./foundation/util/redact.ts";
export { withRetry, backoffDelay, type Sleep, type RetryOptions, type RetryInfo } from "./foundation/util/retry.ts";
export { MEDIA_TEXTS, photoMessageText } from "./conversation/prompts/media-texts.ts";
export { acceptsImages } from "./foundation/config/media.ts";
export type { AudioInput, Transcriber } from "./foundation/ports/transcriber.ts";
export type { ImageInput } from "./foundation/ports/chat-model.ts";
export { normalizeText } from "./foundation/util/text.ts";
export type { ContactStatus } from "./foundation/health/contacts.ts";
export { ensurePrivateDir, makePrivate, openToOthers, PRIVATE_FILE_MODE } from "./foundation/util/file-modes.ts";
export type { DiaryApi } from "./background/diary/diary-api.ts";
export type { DiaryEntry, DiaryResult, DiaryReason } from "./background/diary/write-diary.ts";
export type { ReflectionApi, ThoughtEntry } from "./background/reflection/reflection-api.ts";
export type { ReflectionResult, ReflectionReason } from "./background/reflection/reflect.ts";
export type { ConcernOutcome } from "./background/reflection/concerns.ts";
export type { GreetingApi, GreetingPreview } from "./background/greeting/greeting-api.ts";
export type { GreetingResult, GreetingReason } from "./background/greeting/greet.ts";
export type { AnalysisApi, AnalysisOptions, AnalysisResult } from "./background/analysis/analysis-api.ts";
export { MOODS, type Mood } from "./conversation/markers/emotion.ts";
export { configSection, sectionOf, type ConfigSection, type SectionValues } from "./foundation/config/section.ts";
