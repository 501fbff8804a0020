import { HttpError, type Transformer } from "grammy";
import { describeError, type Logger } from "../../core/index.ts";

/** First wait after a network failure; doubled per failure up to MAX_DELAY_MS. */
const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 60_000;

export interface OutageOptions {
  logger: Logger;
  /** Telegram answered (any answer, even a refusal: the Bot API is reachable). */
  onContact: () => void;
  /** A call failed on the network; `error` is already described. */
  onFailure: (error: string) => void;
  /** Waits `ms` (tests pass a fast one); rejects when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * A grammY API transformer for an unreachable Bot API (network down, DNS,
 * Telegram outage): every failed attempt is logged at warn level with the
 * wait before the next one, the call is retried with exponential backoff
 * (1 s doubling to 60 s) until it goes through or the bot stops, and the
 * recovery is logged too. Each answer counts as the adapter's last contact.
 * grammY's auto-retry (installed after this one) still handles 429 and 5xx.
 */
export function outageRetry(opts: OutageOptions): Transformer {
  const sleep = opts.sleep ?? defaultSleep;
  let downSince: number | undefined;
  return async (prev, method, payload, signal) => {
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await prev(method, payload, signal);
        if (downSince !== undefined) {
          opts.logger.info("telegram reachable again", { method, downSeconds: Math.round((Date.now() - downSince) / 1000) });
          downSince = undefined;
        }
        record(opts.logger, opts.onContact);
        return result;
      } catch (err) {
        if (!(err instanceof HttpError) || signal?.aborted) throw err;
        downSince ??= Date.now();
        const delayMs = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (attempt - 1));
        const error = describeError(err.error ?? err);
        record(opts.logger, () => opts.onFailure(error));
        opts.logger.warn("telegram unreachable, retrying", { method, attempt, retryInSeconds: delayMs / 1000, error });
        await sleep(delayMs, signal as AbortSignal | undefined);
      }
    }
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

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener("abort", abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(signal!.reason);
    }
    signal?.addEventListener("abort", abort, { once: true });
  });
}
