/**
 * The one small retry helper for what has no SDK doing it: the analysis
 * (longer waits than a chat turn) and the Telegram outage loop. The model
 * providers' HTTP calls are retried by their SDKs (maxRetries, Retry-After).
 * Every loop is bounded: each wait is capped and jittered, and the number of
 * retries is finite unless the caller must outlast an outage (Infinity).
 */
import { setTimeout as delay } from "node:timers/promises";
import { ProviderError } from "../errors.ts";

/** Waits `ms`; rejects early when `signal` aborts. Injectable so tests never really sleep. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Exponential backoff: base · 2^attempt, capped, with jitter. */
interface Backoff {
  /** First step (before jitter). Default 500 ms. */
  baseDelayMs?: number;
  /** Cap of one step. Default 8000 ms. */
  maxDelayMs?: number;
  /** Random source in [0, 1) for the jitter. Default Math.random. */
  random?: () => number;
}

/** One retry about to happen, for logging. */
export interface RetryInfo {
  /** 1 for the first retry, 2 for the second, … */
  attempt: number;
  /** How long withRetry waits before that retry. */
  delayMs: number;
  /** The failure that caused the retry. */
  error: unknown;
}

/** How withRetry retries. */
interface RetryOptions extends Backoff {
  /** Retries after the first attempt; 0 = try once; Infinity only for a loop that must outlast an outage. */
  maxRetries: number;
  /** Which failures are worth another attempt. Default: a ProviderError with `retryable: true`. */
  retryable?: (err: unknown) => boolean;
  /** A Retry-After (ProviderError's `retryAfterMs`) longer than this is not waited for: the error is thrown. Default 60000 ms. */
  maxRetryAfterMs?: number;
  sleep?: Sleep;
  /** Called before each wait, e.g. to log. */
  onRetry?: (info: RetryInfo) => void;
  /** Stops retrying (and waiting) when aborted. */
  signal?: AbortSignal | undefined;
}

const defaultSleep: Sleep = (ms, signal) => delay(ms, undefined, signal ? { signal } : undefined);
const retryableProviderError = (err: unknown): boolean => err instanceof ProviderError && err.retryable;

/**
 * Runs `fn` and retries it while it throws a retryable failure, at most
 * `maxRetries` times, waiting the server's Retry-After when the error
 * carries one, else the backoff. Any other error, or the last failure, is
 * thrown as is.
 */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const { maxRetries, retryable = retryableProviderError, maxRetryAfterMs = 60_000, sleep = defaultSleep, onRetry, signal } = options;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      if (!retryable(err) || attempt >= maxRetries || signal?.aborted) throw err;
      const hint = retryAfterOf(err);
      if (hint !== undefined && hint > maxRetryAfterMs) throw err;
      const delayMs = hint ?? backoffDelay(attempt, options);
      onRetry?.({ attempt: attempt + 1, delayMs, error: err });
      try {
        await sleep(delayMs, signal);
      } catch (cause) {
        // Aborted while waiting: the caller learns why the call failed, not that the wait was cut short.
        if (signal?.aborted) throw err;
        throw cause;
      }
    }
  }
}

/**
 * Wait before retry number `attempt + 1`: min(max, base · 2^attempt), of
 * which a random half is dropped ("equal jitter"), so clients that failed
 * together do not retry together.
 */
export function backoffDelay(attempt: number, { baseDelayMs = 500, maxDelayMs = 8_000, random = Math.random }: Backoff = {}): number {
  const step = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
  return Math.round(step / 2 + (random() * step) / 2);
}

/** The server's Retry-After a ProviderFailure carries (see providers/sdk-errors.ts), if any. */
function retryAfterOf(err: unknown): number | undefined {
  const v = err instanceof ProviderError ? (err as ProviderError & { retryAfterMs?: unknown }).retryAfterMs : undefined;
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : undefined;
}
