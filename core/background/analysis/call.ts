/**
 * One analyst call with the two safety nets of docs/spec.md §10: an empty answer
 * (thinking used up the output budget) is asked again with larger limits
 * (32,000, then 64,000 tokens by default); overload or a broken connection
 * (a retryable ProviderError) is waited out and retried. A part takes
 * minutes and overload lasts longer than a chat turn can wait, so the
 * analysis retries with the shared helper and longer waits, and asks the
 * provider's SDK for no retries of its own (they would multiply).
 */
import type { ChatModel, ChatRequest, ChatResponse } from "../../foundation/ports/chat-model.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import { AnalysisError, describeError } from "../../foundation/errors.ts";
import { withRetry, type Sleep } from "../../foundation/util/retry.ts";

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
  for (const maxTokens of limits) {
    const res = await withRetry(() => model.complete({ purpose: "analysis", ...request, maxTokens, maxRetries: 0 }), {
      maxRetries: o.maxRetries,
      baseDelayMs: 2_000,
      maxDelayMs: 30_000,
      ...(o.sleep ? { sleep: o.sleep } : {}),
      onRetry: ({ attempt, delayMs, error }) => o.logger.warn("analysis: provider failed, retrying", { attempt, delayMs, error: describeError(error) }),
    });
    if (res.text.trim()) return res;
    o.logger.warn("analysis: empty answer, retrying with a larger output limit", { maxTokens, stopReason: res.stopReason });
  }
  throw new AnalysisError(`The analyst answered empty even with ${limits.at(-1)} output tokens (stopped: thinking may use up the budget).`);
}
