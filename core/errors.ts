import { redactSecrets } from "./util/redact.ts";

/**
 * Typed errors. Every error Lilo raises carries a stable `code` and, where it
 * wraps something, the original error as `cause`, so logs and callers can tell
 * a refused API call from a network failure from a bug.
 */
export class LiloError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "LiloError";
    this.code = code;
  }
}

/** Configuration is missing or invalid; the message names the variable. */
export class ConfigError extends LiloError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("config", message, options);
    this.name = "ConfigError";
  }
}

/** Why a run-time model switch was refused; adapters say it in the persona's language. */
export type ModelSwitchReason = "no-model-named" | "unknown-provider" | "provider-unusable";

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
export class ProviderError extends LiloError {
  readonly provider: string;
  readonly status: number | undefined;
  readonly retryable: boolean;

  constructor(
    message: string,
    opts: { provider: string; status?: number; retryable: boolean; cause?: unknown },
  ) {
    super("provider", message, { cause: opts.cause });
    this.name = "ProviderError";
    this.provider = opts.provider;
    this.status = opts.status;
    this.retryable = opts.retryable;
  }
}

/** A model answered, but not in the shape we asked for (zod said no). */
export class ModelOutputError extends LiloError {
  readonly raw: string;

  constructor(message: string, raw: string, options?: { cause?: unknown }) {
    super("model-output", message, options);
    this.name = "ModelOutputError";
    this.raw = raw;
  }
}

/** The embedding model could not be loaded or run. */
export class EmbedderError extends LiloError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("embedder", message, options);
    this.name = "EmbedderError";
  }
}

/** The vector index refused or failed an operation. */
export class VectorIndexError extends LiloError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("vector-index", message, options);
    this.name = "VectorIndexError";
  }
}

/** A row that should exist does not (wrong id, other user's row, deleted). */
export class NotFoundError extends LiloError {
  constructor(message: string) {
    super("not-found", message);
    this.name = "NotFoundError";
  }
}

/** Short human-readable description of any thrown value, for logs and users; secrets masked. */
export function describeError(err: unknown): string {
  return redactSecrets(err instanceof Error ? err.message : String(err));
}

/** A web search, page fetch or feed fetch failed or was refused; `reason` says which. */
export class LookupError extends LiloError {
  readonly reason: "refused" | "failed";

  constructor(reason: "refused" | "failed", message: string, options?: { cause?: unknown }) {
    super("lookup", message, options);
    this.name = "LookupError";
    this.reason = reason;
  }
}
