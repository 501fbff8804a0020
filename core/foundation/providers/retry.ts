/**
 * Retries and error policy for model provider calls, in one place for every
 * provider: which failures are worth a retry, how long to wait (exponential
 * backoff with jitter, or the server's Retry-After), and how an SDK failure
 * becomes a ProviderError whose message never contains an API key.
 *
 * The provider models (AnthropicModel, OpenAICompatibleModel) make exactly one
 * HTTP attempt per call (their SDKs run with maxRetries: 0); RetryingModel
 * wraps any ChatModel with withRetry. createChatModel composes the two.
 */
import { setTimeout as delay } from "node:timers/promises";
import type { ChatModel, ChatRequest, ChatResponse } from "../ports/chat-model.ts";
import { ProviderError } from "../errors.ts";
import { redactSecrets } from "../util/redact.ts";

/** Waits `ms`; rejects early when `signal` aborts. Injectable so tests never really sleep. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface RetryInfo {
  /** 1 for the first retry, 2 for the second, … */
  attempt: number;
  /** How long withRetry waits before that retry. */
  delayMs: number;
  /** The failure that caused the retry. */
  error: ProviderError;
}

export interface RetryOptions {
  /** Retries after the first attempt; 0 = try once. */
  maxRetries: number;
  /** First backoff step (before jitter). Default 500 ms. */
  baseDelayMs?: number;
  /** Cap of one backoff step. Default 8000 ms. */
  maxDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown instead. Default 60000 ms. */
  maxRetryAfterMs?: number;
  sleep?: Sleep;
  /** Random source in [0, 1) for the jitter. Default Math.random. */
  random?: () => number;
  /** Called before each wait, e.g. to log. */
  onRetry?: (info: RetryInfo) => void;
  /** Stops retrying (and waiting) when aborted. */
  signal?: AbortSignal;
}

/** A ProviderError that may carry the server's Retry-After hint. */
export type ProviderFailure = ProviderError & { retryAfterMs?: number };

const defaultSleep: Sleep = (ms, signal) => delay(ms, undefined, signal ? { signal } : undefined);

/**
 * Runs `fn` and retries it while it throws a ProviderError with
 * `retryable: true`, at most `maxRetries` times. Any other error, a
 * non-retryable ProviderError or the last failure is thrown as is.
 */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const {
    maxRetries,
    baseDelayMs = 500,
    maxDelayMs = 8_000,
    maxRetryAfterMs = 60_000,
    sleep = defaultSleep,
    random = Math.random,
    onRetry,
    signal,
  } = options;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      if (!(err instanceof ProviderError) || !err.retryable || attempt >= maxRetries || signal?.aborted) throw err;
      const hint = retryAfterOf(err);
      if (hint !== undefined && hint > maxRetryAfterMs) throw err;
      const delayMs = hint ?? backoffDelay(attempt, { baseDelayMs, maxDelayMs, random });
      onRetry?.({ attempt: attempt + 1, delayMs, error: err });
      try {
        await sleep(delayMs, signal);
      } catch {
        throw err; // aborted while waiting: the caller learns why the call failed
      }
    }
  }
}

/**
 * Wait before retry number `attempt + 1`: min(max, base · 2^attempt), of
 * which a random half is dropped ("equal jitter"), so clients that failed
 * together do not retry together.
 */
export function backoffDelay(
  attempt: number,
  { baseDelayMs = 500, maxDelayMs = 8_000, random = Math.random }: Pick<RetryOptions, "baseDelayMs" | "maxDelayMs" | "random"> = {},
): number {
  const step = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
  return Math.round(step / 2 + (random() * step) / 2);
}

/** A ChatModel decorator that retries the inner model's retryable failures. */
export class RetryingModel implements ChatModel {
  readonly provider: string;
  readonly model: string;

  constructor(
    readonly inner: ChatModel,
    private readonly options: RetryOptions,
  ) {
    this.provider = inner.provider;
    this.model = inner.model;
  }

  complete(request: ChatRequest): Promise<ChatResponse> {
    const signal = request.signal ?? this.options.signal;
    return withRetry(() => this.inner.complete(request), signal ? { ...this.options, signal } : this.options);
  }
}

/** HTTP statuses worth retrying: timeouts, conflicts, rate limits, server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** `retry-after-ms`, or `retry-after` in seconds or as an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Math.round(Number(ms));
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.round(seconds * 1000) : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** What went wrong, as the provider models see it after unpacking their SDK's error. */
export interface FailureInput {
  provider: string;
  kind: "http" | "timeout" | "connection" | "aborted" | "other";
  /** HTTP status (kind "http"). */
  status?: number;
  /** Response headers (kind "http"): Retry-After and x-should-retry are read from them. */
  headers?: Headers;
  /** Server's or SDK's explanation; shortened and redacted. */
  detail?: string;
  /** The base URL called, named in connection and timeout messages (without credentials or query). */
  baseUrl?: string;
  timeoutMs?: number;
  /** Strings that must never appear in the message (the API key). */
  secrets?: ReadonlyArray<string | undefined>;
  cause: unknown;
}

/**
 * Builds the ProviderError for a failed call: retryable for 408/409/429/5xx
 * (or as the server's `x-should-retry` says), timeouts and connection
 * failures; with `retryAfterMs` when the server sent Retry-After; the
 * message redacted of every secret.
 */
export function providerFailure(input: FailureInput): ProviderFailure {
  const { provider, kind, status } = input;
  const where = input.baseUrl ? ` (${safeUrl(input.baseUrl)})` : "";
  const detail = shorten(input.detail ?? "");
  let message: string;
  let retryable: boolean;
  switch (kind) {
    case "http": {
      const shouldRetry = input.headers?.get("x-should-retry");
      retryable = shouldRetry === "true" ? true : shouldRetry === "false" ? false : status !== undefined && isRetryableStatus(status);
      const text = detail.replace(new RegExp(`^${status ?? ""}\\s+`), "");
      message = `${provider} request failed with status ${status ?? "?"}${text ? `: ${text}` : ""}`;
      break;
    }
    case "timeout":
      retryable = true;
      message = `${provider} request timed out${input.timeoutMs !== undefined ? ` after ${input.timeoutMs} ms` : ""}${where}`;
      break;
    case "connection": {
      retryable = true;
      const reason = shorten(rootReason(input.cause) ?? detail);
      message = `${provider}: could not connect${where}${reason ? `: ${reason}` : ""}`;
      break;
    }
    case "aborted":
      retryable = false;
      message = `${provider} request was aborted`;
      break;
    default:
      retryable = false;
      message = `${provider} request failed${detail ? `: ${detail}` : ""}`;
  }
  const err: ProviderFailure = new ProviderError(redact(message, input.secrets ?? []), {
    provider,
    ...(status !== undefined ? { status } : {}),
    retryable,
    cause: input.cause,
  });
  const retryAfterMs = kind === "http" ? parseRetryAfter(input.headers) : undefined;
  if (retryAfterMs !== undefined) err.retryAfterMs = retryAfterMs;
  return err;
}

/** Replaces every occurrence of each non-empty secret, and every secret-shaped string, with "***". */
export function redact(text: string, secrets: ReadonlyArray<string | undefined>): string {
  return redactSecrets(text, secrets);
}

function retryAfterOf(err: ProviderError): number | undefined {
  const v = (err as ProviderFailure).retryAfterMs;
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : undefined;
}

/** Scheme, host and path only: no user:password, no query. */
function safeUrl(raw: string): string {
  try {
    const u = new URL(raw);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/$/, "")}`;
  } catch {
    return "invalid base URL";
  }
}

function shorten(text: string, max = 300): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
}

/** The first errno-style code (ECONNREFUSED, ENOTFOUND, …) in the cause chain, else the innermost message. */
function rootReason(err: unknown): string | undefined {
  let cur: unknown = err;
  let innermost: string | undefined;
  for (let depth = 0; depth < 6 && cur && typeof cur === "object"; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === "string" && code) return code;
    if (depth > 0 && cur instanceof Error && cur.message) innermost = cur.message;
    cur = (cur as { cause?: unknown }).cause;
  }
  return innermost;
}
