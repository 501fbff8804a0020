/**
 * Lilo's public surface: `createLilo` and the types of its use-case API (see
 * README "Library use"), the ports a caller may implement, configuration and
 * errors. The composition root is `lilo.ts`; the use cases live in `api/`.
 */
export { createLilo, type LiloPorts } from "./lilo.ts";
export type { Lilo } from "./api/lilo-api.ts";
export { ANY_USER, type MemoryEntry } from "./api/memory-api.ts";
export { WriterLock } from "./store/writer-lock.ts";
export { EXPORT_STORES, type ExportStore } from "./store/export-lines.ts";
export { DEDUPE_STORES, type DedupeStore } from "./memory/duplicates.ts";

export * from "./config.ts";
export { loadConfigFromEnv } from "./config/load.ts";
export * from "./errors.ts";
export type { IncomingMessage, TurnResult, Question, TurnMiddleware, TurnContext } from "./turn/types.ts";
export type { MemoryHit } from "./memory/memory.ts";
export type { MemoryBlocks, SheetPassage } from "./turn/memory-blocks.ts";
export type { Clock } from "./ports/clock.ts";
export { fixedClock, systemClock } from "./ports/clock.ts";
export type { Embedder } from "./ports/embedder.ts";
export type { VectorIndex, VectorIndexState, VectorStore } from "./ports/vector-index.ts";
export { VECTOR_STORES } from "./ports/vector-index.ts";
export type { ChatModel, ChatRequest, ChatResponse } from "./ports/chat-model.ts";
export type { Logger } from "./ports/logger.ts";
export type { WebSearch, SearchResult } from "./ports/web-search.ts";
export type { Transport, PushMessage, PushTarget } from "./ports/transport.ts";
export type { PushOutcome, PushResult } from "./push/push.ts";
export type { Answer } from "./questions/questions.ts";
export type { CorrectionEntry } from "./correction/correction-log.ts";
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
export type { AnalysisApi, AnalysisOptions, AnalysisResult } from "./analysis/analysis-api.ts";
