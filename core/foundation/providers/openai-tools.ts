import type { ChatCompletionMessage, ChatCompletionMessageParam, ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import type { ChatMessage, ChatRequest, ToolCall } from "../ports/chat-model.ts";

/** A chat message in the Chat Completions shape: tool calls on the assistant message, each result its own `tool` message. */
export function openaiMessages(m: ChatMessage): ChatCompletionMessageParam[] {
  if (m.toolCalls?.length) {
    return [
      {
        role: "assistant",
        content: m.content || null,
        tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: "function" as const, function: { name: c.name, arguments: JSON.stringify(c.input ?? {}) } })),
      },
    ];
  }
  if (m.toolResults?.length) {
    return [
      ...m.toolResults.map((r) => ({ role: "tool" as const, tool_call_id: r.callId, content: r.content })),
      ...(m.content ? [{ role: "user" as const, content: m.content }] : []),
    ];
  }
  if (m.images?.length) {
    return [
      {
        role: "user",
        content: [
          ...m.images.map((i) => ({ type: "image_url" as const, image_url: { url: `data:${i.mediaType};base64,${i.data}` } })),
          ...(m.content ? [{ type: "text" as const, text: m.content }] : []),
        ],
      },
    ];
  }
  return [{ role: m.role, content: m.content }];
}

/** `tools` and `tool_choice` of the request, when it has tools. */
export function openaiTools(request: ChatRequest): Pick<ChatCompletionCreateParamsNonStreaming, "tools" | "tool_choice"> {
  if (!request.tools?.length) return {};
  return {
    tools: request.tools.map((t) => ({ type: "function" as const, function: { name: t.name, description: t.description, parameters: t.parameters } })),
    tool_choice: request.toolChoice === "none" ? "none" : "auto",
  };
}

/** The function calls of an answer; arguments that are not JSON are passed on as the raw string (the tool reports it). */
export function openaiToolCalls(message: ChatCompletionMessage | undefined): ToolCall[] {
  return (message?.tool_calls ?? []).flatMap((c) => {
    if (c.type !== "function") return [];
    let input: unknown = c.function.arguments;
    try {
      input = JSON.parse(c.function.arguments || "{}");
    } catch {
      // left as the raw string: zod refuses it and the model is told
    }
    return [{ id: c.id, name: c.function.name, input }];
  });
}
