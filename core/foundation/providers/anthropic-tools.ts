import type Anthropic from "@anthropic-ai/sdk";
import type { ChatMessage, ChatRequest, ToolCall } from "../ports/chat-model.ts";

/** A chat message in the Messages API shape: tool calls become `tool_use` blocks, results `tool_result` blocks. */
export function anthropicMessage(m: ChatMessage): Anthropic.MessageParam {
  if (m.toolCalls?.length) {
    return {
      role: "assistant",
      content: [
        ...(m.content ? [{ type: "text" as const, text: m.content }] : []),
        ...m.toolCalls.map((c) => ({ type: "tool_use" as const, id: c.id, name: c.name, input: c.input as Record<string, unknown> })),
      ],
    };
  }
  if (m.toolResults?.length) {
    return {
      role: "user",
      content: [
        ...m.toolResults.map((r) => ({ type: "tool_result" as const, tool_use_id: r.callId, content: r.content, ...(r.isError ? { is_error: true } : {}) })),
        ...(m.content ? [{ type: "text" as const, text: m.content }] : []),
      ],
    };
  }
  if (m.images?.length) {
    return {
      role: "user",
      content: [
        ...m.images.map((i) => ({
          type: "image" as const,
          source: { type: "base64" as const, media_type: i.mediaType as Anthropic.Base64ImageSource["media_type"], data: i.data },
        })),
        ...(m.content ? [{ type: "text" as const, text: m.content }] : []),
      ],
    };
  }
  return { role: m.role, content: m.content };
}

/** `tools` and `tool_choice` of the request, when it has tools. */
export function anthropicTools(request: ChatRequest): Pick<Anthropic.MessageCreateParamsNonStreaming, "tools" | "tool_choice"> {
  if (!request.tools?.length) return {};
  return {
    tools: request.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters as Anthropic.Tool.InputSchema })),
    tool_choice: request.toolChoice === "none" ? { type: "none" } : { type: "auto" },
  };
}

/** The `tool_use` blocks of an answer. */
export function anthropicToolCalls(content: Anthropic.ContentBlock[]): ToolCall[] {
  return content.flatMap((b) => (b.type === "tool_use" ? [{ id: b.id, name: b.name, input: b.input }] : []));
}
