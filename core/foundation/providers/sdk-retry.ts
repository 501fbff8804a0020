/**
 * The retry policy of model calls: the SDKs' own. Both (@anthropic-ai/sdk,
 * openai) retry 408, 409, 429, 5xx, timeouts and broken connections up to
 * `maxRetries` times, honour `x-should-retry`, and wait `retry-after-ms` /
 * `retry-after` when the server sends one, else 0.5 s doubling to 8 s with
 * jitter. What they lack is a limit on Retry-After: a server asking for an
 * hour would hold a chat turn for an hour. The fetch below stops them there.
 */
import { parseRetryAfter, RETRY_AFTER_TOO_LONG } from "./sdk-errors.ts";

/** A Retry-After longer than this is not waited for: the call fails (retryable) at once. */
const MAX_RETRY_AFTER_MS = 60_000;

/** The retry part of both SDKs' client options. */
interface SdkRetryOptions {
  maxRetries: number;
  fetch: typeof fetch;
}

/** Client options for `maxRetries` SDK retries that never wait longer than `maxRetryAfterMs` for one. */
export function sdkRetryOptions(maxRetries: number, maxRetryAfterMs: number = MAX_RETRY_AFTER_MS): SdkRetryOptions {
  return { maxRetries, fetch: cappedRetryAfter(maxRetryAfterMs) };
}

/**
 * A fetch that marks an answer whose Retry-After exceeds `maxMs` with
 * `x-should-retry: false` (which both SDKs obey) and RETRY_AFTER_TOO_LONG
 * (so the ProviderError still says the call may be retried later).
 */
function cappedRetryAfter(maxMs: number, inner: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init) => {
    const res = await inner(input, init);
    const wait = res.ok ? undefined : parseRetryAfter(res.headers);
    if (wait === undefined || wait <= maxMs) return res;
    const headers = new Headers(res.headers);
    headers.set("x-should-retry", "false");
    headers.set(RETRY_AFTER_TOO_LONG, String(wait));
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  };
}
