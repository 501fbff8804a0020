import type { CallPurpose, ChatModel, ChatRequest, ChatResponse } from "../ports/chat-model.ts";

/**
 * The model with `purpose` and `userId` filled into every request that does
 * not name its own: for callers that hand the model to helpers building the
 * requests themselves (completeJson, the extraction retry), so the usage
 * ledger still learns what each call was for and whom it served.
 */
export function tagCalls(model: ChatModel, tags: { purpose: CallPurpose; userId?: string | undefined }): ChatModel {
  return {
    provider: model.provider,
    model: model.model,
    complete: (request: ChatRequest): Promise<ChatResponse> =>
      model.complete({
        ...request,
        purpose: request.purpose ?? tags.purpose,
        ...(request.userId === undefined && tags.userId !== undefined ? { userId: tags.userId } : {}),
      }),
  };
}
