/**
 * How a failed model call becomes a ProviderError, for every provider:
 * which failures are worth a retry (the same rule the SDKs retry by), the
 * server's Retry-After, and a message that never contains an API key. The
 * retries themselves are the SDKs' (see sdk-retry.ts).
 */
import { ProviderError } from "../errors.ts";
import { said, type Said } from "../error-texts.ts";
import { redactSecrets } from "../util/redact.ts";

/** Set by sdk-retry.ts on an answer whose Retry-After is too long to wait for: the SDK then stops, the failure stays retryable. */
export const RETRY_AFTER_TOO_LONG = "x-lilo-retry-after-too-long";

/** A ProviderError that may carry the server's Retry-After hint. */
export type ProviderFailure = ProviderError & { retryAfterMs?: number };

/** What went wrong, as the provider models see it after unpacking their SDK's error. */
interface FailureInput {
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

type ErrorClass<E extends Error = Error> = abstract new (...args: never[]) => E;

/** The error classes both vendor SDKs (same generator, same hierarchy) export. */
interface SdkErrorClasses {
  abort: ErrorClass;
  timeout: ErrorClass;
  connection: ErrorClass;
  api: ErrorClass<Error & { status?: number | undefined; headers?: Headers | undefined }>;
}

/**
 * Maps an error thrown by the Anthropic or OpenAI SDK (after its own
 * retries) to our ProviderError. The two SDKs share their error hierarchy,
 * so one mapping serves both; `apiDetail` lets each say what its API error
 * body means.
 */
export function sdkFailure(
  err: unknown,
  base: Omit<FailureInput, "kind" | "cause" | "detail" | "status" | "headers">,
  classes: SdkErrorClasses,
  apiDetail: (err: Error) => string = (e) => e.message,
): ProviderFailure {
  const input = { ...base, cause: err };
  // Order matters: timeout errors are connection errors in both SDKs.
  if (err instanceof classes.abort) return providerFailure({ ...input, kind: "aborted" });
  if (err instanceof classes.timeout) return providerFailure({ ...input, kind: "timeout" });
  if (err instanceof classes.connection) return providerFailure({ ...input, kind: "connection", detail: err.message });
  if (err instanceof classes.api && typeof err.status === "number") {
    return providerFailure({ ...input, kind: "http", status: err.status, ...(err.headers ? { headers: err.headers } : {}), detail: apiDetail(err) });
  }
  if (brokeOff(err)) return providerFailure({ ...input, kind: "connection", detail: (err as Error).message });
  return providerFailure({ ...input, kind: "other", detail: err instanceof Error ? err.message : String(err) });
}

/** Socket failures Node and undici report when a connection breaks after the answer began. */
const BROKEN_CONNECTION_CODES = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "ERR_STREAM_PREMATURE_CLOSE"]);

/**
 * A streamed answer whose connection broke off midway surfaces as a plain
 * error (undici's "terminated"), not as the SDK's connection error: it is as
 * worth another try as a connection that never came up.
 */
function brokeOff(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e instanceof Error && depth < 5; depth++, e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (e.message === "terminated" || (typeof code === "string" && BROKEN_CONNECTION_CODES.has(code))) return true;
  }
  return false;
}

/** HTTP statuses worth retrying (the SDKs' rule too): timeouts, conflicts, rate limits, server errors. */
function isRetryableStatus(status: number): boolean {
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
      // Our own "false" (a Retry-After too long to wait for) means "later", not "never".
      const shouldRetry = input.headers?.has(RETRY_AFTER_TOO_LONG) ? null : input.headers?.get("x-should-retry");
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
    said: failureSaid(provider, kind, status),
  });
  const retryAfterMs = kind === "http" ? parseRetryAfter(input.headers) : undefined;
  if (retryAfterMs !== undefined) err.retryAfterMs = retryAfterMs;
  return err;
}

/** What the user is told about a failed call: the kind of failure, not the server's words (they stay in the log). */
function failureSaid(provider: string, kind: FailureInput["kind"], status: number | undefined): Said {
  if (kind === "timeout") return said("providerTimeout", provider);
  if (kind === "connection") return said("providerUnreachable", provider);
  if (kind === "aborted") return said("providerAborted", provider);
  if (kind !== "http" || status === undefined) return said("providerFailed", provider);
  if (status === 401 || status === 403) return said("providerKeyRefused", provider, status);
  if (status === 404) return said("providerNotFound", provider, status);
  if (status === 429) return said("providerRateLimited", provider);
  return status >= 500 ? said("providerDown", provider, status) : said("providerRefused", provider, status);
}

/** Replaces every occurrence of each non-empty secret, and every secret-shaped string, with "***". */
function redact(text: string, secrets: ReadonlyArray<string | undefined>): string {
  return redactSecrets(text, secrets);
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
