/**
 * One analyst call with the two safety nets of SPEC §10: an empty answer
 * (thinking used up the output budget) is asked again with larger limits
 * (32,000, then 64,000 tokens by default); overload or a broken connection
 * (a retryable ProviderError) is waited out and retried.
 */
import type { ChatModel, ChatRequest, ChatResponse } from "../../foundation/ports/chat-model.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import { AnalysisError } from "../../foundation/errors.ts";
import { RetryingModel, withRetry, type Sleep } from "../../foundation/providers/retry.ts";

/** Limits and waiting of one call. */
export interface AnalystCallOptions {
  /** Output limit of the first attempt. */
  maxTokens: number;
  /** Larger limits after each empty answer, in order. */
  retryTokens: number[];
  /** Retries of a retryable provider failure (per output limit). */
  maxRetries: number;
  /** Injectable so tests never wait. */
  sleep?: Sleep | undefined;
  logger: Logger;
}

/** Calls the analyst; throws AnalysisError when every output limit brought an empty answer. */
export async function callAnalyst(model: ChatModel, request: Omit<ChatRequest, "maxTokens">, o: AnalystCallOptions): Promise<ChatResponse> {
  const limits = [o.maxTokens, ...o.retryTokens];
  // The analysis retries on its own terms (longer waits, its own count); the role model's retries would multiply them.
  const inner = model instanceof RetryingModel ? model.inner : model;
  for (const maxTokens of limits) {
    const res = await withRetry(() => inner.complete({ ...request, maxTokens }), {
      maxRetries: o.maxRetries,
      baseDelayMs: 2_000,
      maxDelayMs: 30_000,
      ...(o.sleep ? { sleep: o.sleep } : {}),
      onRetry: (info) => o.logger.warn("analysis: provider failed, retrying", { attempt: info.attempt, delayMs: info.delayMs, error: info.error.message }),
    });
    if (res.text.trim()) return res;
    o.logger.warn("analysis: empty answer, retrying with a larger output limit", { maxTokens, stopReason: res.stopReason });
  }
  throw new AnalysisError(`The analyst answered empty even with ${limits.at(-1)} output tokens (stopped: thinking may use up the budget).`);
}
