/**
 * Lilo as a library: what a program that embeds her needs (docs/library.md).
 * `createLilo` with its configuration loader, the `Lilo` interface whose use
 * cases are reached through it (`Lilo["memory"]`), the ports a caller may
 * implement and pass in, what a turn takes and gives back, and the typed
 * errors. Lilo's own adapters, jobs and CLI also import core/internal.ts,
 * which is not for library users.
 *
 * The CLI's bundle (admin-cli/build.js) gives each static import of this file
 * a module of its own that re-exports only the names imported, so `lilo --help`
 * loads none of createLilo and what is behind it.
 */

// The entry point, its configuration and the use-case API.
export { createLilo, type LiloPorts } from "./api/create-lilo.ts";
export type { Lilo } from "./api/lilo-api.ts";
export { loadConfig, type LiloConfig } from "./foundation/config/config.ts";
export { loadConfigFromEnv } from "./foundation/config/load.ts";
// The user id with which the operator reaches every user's entries (`lilo.memory.edit(ANY_USER, …)`).
export { ANY_USER } from "./api/names.ts";

// What a turn takes and gives back; a step of one's own (`LiloPorts.steps`) is a TurnMiddleware.
export type { IncomingMessage, TurnResult, TurnOptions, Question, TurnMiddleware, TurnContext } from "./conversation/turn/types.ts";
export type { AnswerStream, StreamUpdate } from "./conversation/turn/answer-stream.ts";
export type { MemoryHit } from "./memory/memory.ts";
export type { MemoryEntry } from "./api/memory-api.ts";

// Ports a caller may implement (createLilo's second argument), and the ready clock and loggers.
export { fixedClock, systemClock, type Clock } from "./foundation/ports/clock.ts";
export { consoleLogger, silentLogger, type Logger } from "./foundation/ports/logger.ts";
export type { Embedder } from "./foundation/ports/embedder.ts";
export type { Reranker } from "./foundation/ports/reranker.ts";
export type { VectorIndex, VectorKey, VectorRecord, VectorHit, VectorQuery, IndexStore } from "./foundation/ports/vector-index.ts";
export type { ChatModel, ChatRequest, ChatResponse, ChatMessage, ImageInput, ToolSpec, ToolCall, ToolResult } from "./foundation/ports/chat-model.ts";
export type { WebSearch, SearchResult } from "./foundation/ports/web-search.ts";
export type { Transport, PushMessage, PushTarget } from "./foundation/ports/transport.ts";
export type { Transcriber, AudioInput } from "./foundation/ports/transcriber.ts";
export type { Speaker } from "./foundation/ports/speaker.ts";
export type { Metrics } from "./foundation/ports/metrics.ts";

// Errors: every one a LiloError with a code; describeError words any error as a sentence.
export { LiloError, ConfigError, ModelSwitchError, ProviderError, EmbedderError, VectorIndexError } from "./foundation/errors.ts";
export { NotFoundError, LookupError, AnalysisError, describeError, type ErrorCode } from "./foundation/errors.ts";
