import { performance } from "node:perf_hooks";
import { modelLabel, type ChatModel, type ChatRequest, type ChatResponse } from "../ports/chat-model.ts";
import type { Clock } from "../ports/clock.ts";
import type { Logger } from "../ports/logger.ts";
import type { UsageLedger } from "../store/usage-ledger.ts";
import { LiloError, describeError } from "../errors.ts";
import { said } from "../error-texts.ts";
import { localDay } from "../util/time.ts";
import { costOf, priceOf, type PriceTable } from "./prices.ts";
import { estimateUsage } from "./estimate.ts";

/** What the ledger decorator records with and asks before a call. */
interface UsageRecording {
  ledger: UsageLedger;
  clock: Clock;
  timeZone: string;
  logger: Logger;
  /** The price table now (defaults and LILO_MODEL_PRICES). */
  prices: () => PriceTable;
  /** May a call for this purpose on this model ("provider:model") run now (the budget's cap)? */
  allows: (purpose: ChatRequest["purpose"], model: string) => boolean;
  /** Told after each recorded call (the budget warning looks then). */
  recorded?: () => void;
}

/**
 * A ChatModel decorator that writes every answered call into the usage
 * ledger: provider, model, purpose, user, the provider's token counts (or an
 * estimate, marked, when the server sent none), latency and cost from the
 * price table (null for a model without a price). The one place usage is
 * recorded and capped: the composition root wraps every model with it, so
 * a call the spent budget refuses (every role's, unless it goes to the
 * fallback model) throws a LiloError "budget-spent" before anything is sent,
 * and costs nothing.
 */
export function recordingUsage(model: ChatModel, r: UsageRecording): ChatModel {
  return {
    provider: model.provider,
    model: model.model,
    async complete(request: ChatRequest): Promise<ChatResponse> {
      if (!r.allows(request.purpose, modelLabel(model))) {
        throw new LiloError(
          "budget-spent",
          `The budget is spent: no ${request.purpose ?? "other"} call until it renews or is lifted (lilo usage shows the spend)`,
          {
            said: said("budgetSpent"),
          },
        );
      }
      const started = performance.now();
      const response = await model.complete(request);
      record(model, r, request, response, performance.now() - started);
      return response;
    },
  };
}

function record(model: ChatModel, r: UsageRecording, request: ChatRequest, response: ChatResponse, latencyMs: number): void {
  try {
    const usage = response.usage ?? estimateUsage(request, response);
    const counts = {
      inputTokens: usage.inputTokens,
      cachedInputTokens: response.usage?.cachedInputTokens ?? 0,
      cacheWriteTokens: response.usage?.cacheWriteTokens ?? 0,
      outputTokens: usage.outputTokens,
    };
    const price = priceOf(r.prices(), model.provider, model.model) ?? priceOf(r.prices(), model.provider, response.model);
    const now = r.clock.now();
    r.ledger.add({
      at: now.toISOString(),
      localDay: localDay(now, r.timeZone),
      userId: request.userId ?? null,
      provider: model.provider,
      model: model.model,
      purpose: request.purpose ?? "other",
      ...counts,
      estimated: !response.usage,
      latencyMs,
      cost: price ? costOf(price, counts) : null,
    });
    r.recorded?.();
  } catch (err) {
    // The answer is there and paid for; a ledger that cannot be written must not take it away.
    r.logger.error("model call not recorded in the usage ledger", { provider: model.provider, model: model.model, error: describeError(err) });
  }
}
