import { HttpError, type Transformer } from "grammy";
import { describeError, type Logger } from "../../core/index.ts";
import { withRetry, type Sleep } from "../../core/internal.ts";

/** First wait after a network failure; doubled per failure up to MAX_DELAY_MS, each wait jittered. */
const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 60_000;
/**
 * Retries of any other call (a send, an edit, a download) before its error
 * goes up: about 12 to 25 minutes of outage (waits capped at a minute,
 * jittered down to half), so an answer to a message sent during a short
 * outage still arrives by itself. After that the answer is marked failed
 * (/retry redoes it) instead of holding the chat's queue and `stop` for as
 * long as Telegram is down.
 */
export const MAX_CALL_RETRIES = 30;
/** Polling and start-up must outlast any outage: they retry until Telegram answers or the bot stops. */
const ENDLESS = new Set(["getUpdates", "getMe", "deleteWebhook", "setWebhook"]);

/** How the outage retry waits; tests pass fast ones. */
export interface OutageOptions {
  logger: Logger;
  /** Telegram answered (any answer, even a refusal: the Bot API is reachable). */
  onContact: () => void;
  /** A call failed on the network; `error` is already described. */
  onFailure: (error: string) => void;
  /** Waits `ms`; rejects when `signal` aborts. */
  sleep?: Sleep | undefined;
  /** Random source in [0, 1) for the jitter. */
  random?: (() => number) | undefined;
}

/**
 * A grammY API transformer for an unreachable Bot API (network down, DNS,
 * Telegram outage): every failed attempt is logged at warn level with the
 * wait before the next one, the call is retried with the shared backoff
 * (1 s doubling to a 60 s cap, jittered), polling and start-up until they go
 * through or the bot stops, other calls MAX_CALL_RETRIES times; the
 * recovery is logged too. Each answer counts as the adapter's last contact.
 * grammY's auto-retry (installed after this one) still handles 429 and 5xx.
 */
export function outageRetry(opts: OutageOptions): Transformer {
  let downSince: number | undefined;
  const failed = (err: HttpError) => {
    downSince ??= Date.now();
    const error = describeError(err.error ?? err);
    record(opts.logger, () => opts.onFailure(error));
    return error;
  };
  return async (prev, method, payload, signal) => {
    let result: Awaited<ReturnType<typeof prev>>;
    try {
      result = await withRetry(() => prev(method, payload, signal), {
        maxRetries: ENDLESS.has(method) ? Infinity : MAX_CALL_RETRIES,
        retryable: (err) => err instanceof HttpError,
        baseDelayMs: FIRST_DELAY_MS,
        maxDelayMs: MAX_DELAY_MS,
        signal: signal as AbortSignal | undefined,
        ...(opts.sleep ? { sleep: opts.sleep } : {}),
        ...(opts.random ? { random: opts.random } : {}),
        onRetry: ({ attempt, delayMs, error: err }) => {
          const error = failed(err as HttpError);
          opts.logger.warn("telegram unreachable, retrying", { method, attempt, retryInSeconds: Math.round(delayMs / 100) / 10, error });
        },
      });
    } catch (err) {
      if (err instanceof HttpError && !signal?.aborted) opts.logger.warn("telegram unreachable, giving up on the call", { method, error: failed(err) });
      throw err;
    }
    if (downSince !== undefined) {
      opts.logger.info("telegram reachable again", { method, downSeconds: Math.round((Date.now() - downSince) / 1000) });
      downSince = undefined;
    }
    record(opts.logger, opts.onContact);
    return result;
  };
}

/** Recording a contact is bookkeeping: its failure (a closing database) must not fail the API call. */
function record(logger: Logger, fn: () => void): void {
  try {
    fn();
  } catch (err) {
    logger.debug("telegram contact not recorded", { error: describeError(err) });
  }
}
