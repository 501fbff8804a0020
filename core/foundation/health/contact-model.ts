import { modelLabel, type ChatModel, type ChatRequest, type ChatResponse } from "../ports/chat-model.ts";
import { describeError, ProviderError } from "../errors.ts";
import type { Contacts } from "./contacts.ts";

/**
 * A ChatModel decorator that records each call's outcome as the model's
 * last contact: an answer is a success; a failure is recorded unless the
 * caller aborted it. A refusal with an HTTP status still means the server
 * was reached, so it counts as contact too.
 */
export function recordingContact(model: ChatModel, contacts: Contacts): ChatModel {
  const name = `model ${modelLabel(model)}`;
  return {
    provider: model.provider,
    model: model.model,
    async complete(request: ChatRequest): Promise<ChatResponse> {
      try {
        const response = await model.complete(request);
        contacts.ok(name);
        return response;
      } catch (err) {
        if (err instanceof ProviderError && err.status !== undefined) contacts.ok(name);
        if (!request.signal?.aborted) contacts.failed(name, describeError(err));
        throw err;
      }
    },
  };
}
