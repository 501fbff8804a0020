import type { ChatRequest, ChatResponse } from "../ports/chat-model.ts";

/** About four characters a token (English and German prose alike): only for servers that report no usage. */
const CHARS_PER_TOKEN = 4;

function tokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/**
 * Token counts for a call whose server sent no usage, estimated from the
 * text sent and received (pictures count by their encoded size, which
 * overstates them: an estimate that errs high never hides spend).
 */
export function estimateUsage(request: ChatRequest, response: ChatResponse): { inputTokens: number; outputTokens: number } {
  let input = tokens(request.system);
  for (const m of request.messages) {
    input += tokens(m.content) + 4;
    for (const image of m.images ?? []) input += tokens(image.data) / 8;
    if (m.toolCalls) input += tokens(JSON.stringify(m.toolCalls));
    for (const r of m.toolResults ?? []) input += tokens(r.content);
  }
  if (request.tools) input += tokens(JSON.stringify(request.tools));
  const output = tokens(response.text) + (response.toolCalls ? tokens(JSON.stringify(response.toolCalls)) : 0);
  return { inputTokens: Math.ceil(input), outputTokens: Math.max(1, output) };
}
