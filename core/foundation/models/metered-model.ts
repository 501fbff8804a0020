import type { ChatModel, ChatRequest, ChatResponse } from "../ports/chat-model.ts";
import type { Metrics } from "../ports/metrics.ts";

/**
 * `model` with each call told to `metrics`: answered calls with their tokens,
 * failed ones as errors, labelled by the call's role and "provider:model".
 * A call aborted by its caller (a stop, a timeout of the caller's own) is no
 * error of the model and is not counted.
 */
export function meteredModel(model: ChatModel, metrics: Metrics): ChatModel {
  const label = `${model.provider}:${model.model}`;
  return {
    provider: model.provider,
    model: model.model,
    async complete(request: ChatRequest): Promise<ChatResponse> {
      const role = request.purpose ?? "other";
      try {
        const response = await model.complete(request);
        metrics.modelCall({ role, model: label, inputTokens: response.usage?.inputTokens ?? 0, outputTokens: response.usage?.outputTokens ?? 0 });
        return response;
      } catch (err) {
        if (!request.signal?.aborted) metrics.modelError({ role, model: label });
        throw err;
      }
    },
  };
}
