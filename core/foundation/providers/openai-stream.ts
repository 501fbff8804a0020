/**
 * A streamed Chat Completions answer put back together: the text handed on
 * piece by piece as it arrives, and at the end one `ChatCompletion` as the
 * non-streamed call returns it (tool calls joined from their fragments, the
 * usage from the last chunk), so the caller reads both the same way.
 */
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionMessageToolCall } from "openai/resources/chat/completions";

/** A tool call as its fragments arrive: the id and name first, the arguments in pieces. */
interface PartialCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Reads the chunks to the end, calling `onDelta` with each piece of text.
 * The SDK ends the iteration quietly when the caller aborts or the
 * connection breaks; a stream without a finish reason is therefore returned
 * with `finished: false`, for the caller to report as the failure it is.
 */
export async function collectStream(
  chunks: AsyncIterable<ChatCompletionChunk>,
  onDelta: (text: string) => void,
): Promise<{ completion: ChatCompletion; finished: boolean }> {
  let text = "";
  let model = "";
  let id = "";
  let created = 0;
  let finish: ChatCompletion.Choice["finish_reason"] | undefined;
  let usage: ChatCompletion["usage"];
  let sawChoice = false;
  const calls = new Map<number, PartialCall>();
  for await (const chunk of chunks) {
    model ||= chunk.model;
    id ||= chunk.id;
    created ||= chunk.created;
    if (chunk.usage) usage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    sawChoice = true;
    const piece = choice.delta?.content;
    if (piece) {
      text += piece;
      onDelta(piece);
    }
    for (const c of choice.delta?.tool_calls ?? []) {
      const call = calls.get(c.index) ?? { id: "", name: "", arguments: "" };
      call.id ||= c.id ?? "";
      call.name ||= c.function?.name ?? "";
      call.arguments += c.function?.arguments ?? "";
      calls.set(c.index, call);
    }
    if (choice.finish_reason) finish = choice.finish_reason;
  }
  const toolCalls: ChatCompletionMessageToolCall[] = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, c]) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } }));
  const completion: ChatCompletion = {
    id,
    object: "chat.completion",
    created,
    model,
    // No choice at all is what the non-streamed path reports as an empty answer.
    choices: sawChoice
      ? [
          {
            index: 0,
            finish_reason: finish ?? "stop",
            logprobs: null,
            message: { role: "assistant", content: text, refusal: null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) },
          },
        ]
      : [],
    ...(usage ? { usage } : {}),
  };
  return { completion, finished: finish !== undefined };
}
