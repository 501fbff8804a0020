import { redactSecrets } from "./util/redact.ts";
import { sentence, systemSentence } from "./util/errno.ts";
import type { ErrorCode } from "./error-codes.ts";
import { causeFollows, ERROR_TEXTS, sayIn, type ErrorLanguage, type Said } from "./error-texts.ts";

export type { ErrorCode } from "./error-codes.ts";

/** Options of every Lilo error. */
interface LiloErrorOptions {
  /** The error this one wraps. */
  cause?: unknown;
  /** What to tell a user, when the message (for logs) is not that sentence itself. */
  said?: Said;
}

/** The English sentence of `said`, with its cause's message where the table says the cause follows. */
function englishOf(s: Said, cause: unknown): string {
  const text = sayIn("en", s);
  return causeFollows(s) && cause !== undefined ? `${text} ${sentence(cause)}` : text;
}

/**
 * Typed errors. Every error Lilo raises carries a stable `code` and, where it
 * wraps something, the original error as `cause`, so logs and callers can tell
 * a refused API call from a network failure from a bug. A subclass owns its
 * code (`ConfigError` is always "config"); the type parameter says which.
 */
export class LiloError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C;
  /** What a user is told, in their language (`describeError(err, language)`); absent: the code's general sentence. */
  readonly said: Said | undefined;

  /** `message` is the English text for logs, or a sentence of the table (`said(...)`), whose English is then the message. */
  constructor(code: C, message: string | Said, options?: LiloErrorOptions) {
    super(typeof message === "string" ? message : englishOf(message, options?.cause), options && "cause" in options ? { cause: options.cause } : undefined);
    this.name = "LiloError";
    this.code = code;
    this.said = typeof message === "string" ? options?.said : message;
  }
}

/** Configuration is missing or invalid; the message names the variable. */
export class ConfigError extends LiloError<"config"> {
  constructor(message: string | Said, options?: LiloErrorOptions) {
    super("config", message, options);
    this.name = "ConfigError";
  }
}

/** Why a run-time model switch was refused; adapters say it in the persona's language. */
type ModelSwitchReason = "no-model-named" | "unknown-provider" | "unknown-model" | "provider-unusable";

/**
 * A run-time model switch (`/model`, `lilo model`) was refused; nothing
 * changed. `provider` is the provider named, `choices` the known ones.
 */
export class ModelSwitchError extends ConfigError {
  constructor(
    message: string | Said,
    readonly reason: ModelSwitchReason,
    readonly provider: string | undefined,
    readonly choices: readonly string[],
    options?: LiloErrorOptions,
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

  constructor(message: string | Said, opts: { provider: string; status?: number; retryable: boolean; cause?: unknown; said?: Said }) {
    super("provider", message, { cause: opts.cause, ...(opts.said ? { said: opts.said } : {}) });
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

/**
 * The embedding model cannot be loaded: its files are not in their folder and
 * could not be downloaded (offline, or the hub unreachable). Lilo then
 * recalls by words alone until the files are there.
 */
export class EmbeddingModelMissingError extends EmbedderError {
  constructor(
    message: string,
    /** Why, in a few words ("downloads are switched off", "the download failed: fetch failed"). */
    readonly reason: string,
    /** The folder the model's files belong in. */
    readonly folder: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "EmbeddingModelMissingError";
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

/**
 * Short human-readable description of any thrown value; secrets masked.
 * Without a language: the English message, for logs and the CLI. With the
 * persona's language: what the user is told — the error's sentence
 * (`said`), else its code's general sentence, else a system error's, else
 * "something went wrong" — never another language. English is the
 * messages' own language, so an English reader gets the message itself
 * where no sentence is keyed.
 */
export function describeError(err: unknown, language?: ErrorLanguage): string {
  // A system error (ENOENT, EACCES, …) becomes a sentence naming its file, not Node's raw "ENOENT: no such file…".
  return redactSecrets(language ? toUser(err, language) : sentence(err));
}

function toUser(err: unknown, language: ErrorLanguage): string {
  if (err instanceof LiloError) {
    if (err.said) {
      const text = sayIn(language, err.said);
      return causeFollows(err.said) && err.cause !== undefined ? `${text} ${toUser(err.cause, language)}` : text;
    }
    return language === "en" ? err.message : ERROR_TEXTS[language].codes[(err as LiloError).code];
  }
  const system = systemSentence(err, language);
  if (system) return system;
  return language === "en" && err instanceof Error && err.message ? err.message : ERROR_TEXTS[language].unknown;
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
