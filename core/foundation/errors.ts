import { redactSecrets } from "./util/redact.ts";
import { sentence } from "./util/errno.ts";

/**
 * Codes of errors raised as a plain `LiloError` (no class of their own):
 * callers tell them apart by code only.
 */
export type GeneralErrorCode =
  /** A caller passed something unusable (empty text, a bad date, an undo that cannot be done). */
  | "invalid-input"
  /** A rule of the program was broken (a missing handler, a row that should have been written). */
  | "internal"
  /** The database could not be opened or is newer than this Lilo. */
  | "database"
  /** Another process holds the writer lock. */
  | "locked"
  /** `lilo import` refused or failed. */
  | "import"
  /** `lilo restore` refused or failed. */
  | "restore"
  /** A diary entry could not be stored. */
  | "diary"
  /** The chat model answered with nothing to show. */
  | "empty-answer"
  /** A push target is no private chat (any more): withheld. */
  | "not-private"
  /** A voice note or photo could not be downloaded from the platform. */
  | "media-download"
  /** A voice note or photo is larger than allowed. */
  | "media-too-large"
  /** A day or month budget is spent: the background call was not made. */
  | "budget-spent"
  /** The reranking model (cross-encoder) could not be loaded or run. */
  | "reranker";

/** Every code a Lilo error can carry: the general ones and those owned by the classes below. */
export type ErrorCode =
  | GeneralErrorCode
  | ConfigError["code"]
  | ProviderError["code"]
  | EmbedderError["code"]
  | VectorIndexError["code"]
  | NotFoundError["code"]
  | LookupError["code"]
  | AnalysisError["code"];

/**
 * Typed errors. Every error Lilo raises carries a stable `code` and, where it
 * wraps something, the original error as `cause`, so logs and callers can tell
 * a refused API call from a network failure from a bug. A subclass owns its
 * code (`ConfigError` is always "config"); the type parameter says which.
 */
export class LiloError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C;

  constructor(code: C, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "LiloError";
    this.code = code;
  }
}

/** Configuration is missing or invalid; the message names the variable. */
export class ConfigError extends LiloError<"config"> {
  constructor(message: string, options?: { cause?: unknown }) {
    super("config", message, options);
    this.name = "ConfigError";
  }
}

/** Why a run-time model switch was refused; adapters say it in the persona's language. */
export type ModelSwitchReason = "no-model-named" | "unknown-provider" | "unknown-model" | "provider-unusable";

/**
 * A run-time model switch (`/model`, `lilo model`) was refused; nothing
 * changed. `provider` is the provider named, `choices` the known ones.
 */
export class ModelSwitchError extends ConfigError {
  constructor(
    message: string,
    readonly reason: ModelSwitchReason,
    readonly provider: string | undefined,
    readonly choices: readonly string[],
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ModelSwitchError";
  }
}

/** A model provider call failed. `retryable` decides whether a retry makes sense. */
export class ProviderError extends LiloError<"provider"> {
  readonly provider: string;
  readonly status: number | undefined;
  readonly retryable: boolean;

  constructor(message: string, opts: { provider: string; status?: number; retryable: boolean; cause?: unknown }) {
    super("provider", message, { cause: opts.cause });
    this.name = "ProviderError";
    this.provider = opts.provider;
    this.status = opts.status;
    this.retryable = opts.retryable;
  }
}

/** The embedding model could not be loaded or run. */
export class EmbedderError extends LiloError<"embedder"> {
  constructor(message: string, options?: { cause?: unknown }) {
    super("embedder", message, options);
    this.name = "EmbedderError";
  }
}

/** The vector index refused or failed an operation. */
export class VectorIndexError extends LiloError<"vector-index"> {
  constructor(message: string, options?: { cause?: unknown }) {
    super("vector-index", message, options);
    this.name = "VectorIndexError";
  }
}

/** A row that should exist does not (wrong id, other user's row, deleted). */
export class NotFoundError extends LiloError<"not-found"> {
  constructor(message: string) {
    super("not-found", message);
    this.name = "NotFoundError";
  }
}

/** Short human-readable description of any thrown value, for logs and users; secrets masked. */
export function describeError(err: unknown): string {
  // A system error (ENOENT, EACCES, …) becomes a sentence naming its file, not Node's raw "ENOENT: no such file…".
  return redactSecrets(sentence(err));
}

/** A web search, page fetch or feed fetch failed or was refused; `reason` says which. */
export class LookupError extends LiloError<"lookup"> {
  readonly reason: "refused" | "failed";

  constructor(reason: "refused" | "failed", message: string, options?: { cause?: unknown }) {
    super("lookup", message, options);
    this.name = "LookupError";
    this.reason = reason;
  }
}

/** The outside view could not be completed (empty answers, a missing report, nothing selected). */
export class AnalysisError extends LiloError<"analysis"> {
  constructor(message: string, options?: { cause?: unknown }) {
    super("analysis", message, options);
    this.name = "AnalysisError";
  }
}
