import type { ChatHistoryItem, ChatModelFunctionCall, ChatModelResponse } from "node-llama-cpp";
import type { ChatMessage, ChatRequest } from "../../ports/chat-model.ts";

/**
 * Lilo's request as node-llama-cpp's chat history: the system prompt, then
 * the turns. Native tool calls are stored differently: Lilo keeps the calls
 * on the assistant message and their results on the next user message;
 * node-llama-cpp keeps each call together with its result inside the model's
 * response. A user message that only carries results therefore merges into
 * the response before it, and when the history ends with such a response the
 * model continues it (it answers after reading the results).
 */
export function toChatHistory(req: Pick<ChatRequest, "system" | "messages">): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = [];
  if (req.system.trim()) history.push({ type: "system", text: req.system });
  const messages = req.messages;
  // Indexes of user messages whose tool results went into the response before them.
  const merged = new Set<number>();
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === "assistant") {
      const next = messages[i + 1];
      const results = next?.role === "user" && m.toolCalls?.length ? (next.toolResults ?? []) : [];
      history.push(modelResponse(m, results));
      if (results.length > 0) merged.add(i + 1);
      continue;
    }
    if (merged.has(i)) {
      // The results are inside the response now; the message stays only if it also says something.
      if (m.content.trim()) history.push({ type: "user", text: userText(m) });
      continue;
    }
    // Results whose calls are not in the history (trimmed by the budget): shown as text, never lost.
    const orphans = (m.toolResults ?? []).map((r) => `[${r.callId}] ${r.content}`);
    history.push({ type: "user", text: [userText(m), ...orphans].filter(Boolean).join("\n") });
  }
  return history;
}

function modelResponse(m: ChatMessage, results: NonNullable<ChatMessage["toolResults"]>): ChatModelResponse {
  const response: ChatModelResponse["response"] = [];
  if (m.content) response.push(m.content);
  for (const call of m.toolCalls ?? []) {
    const result = results.find((r) => r.callId === call.id);
    const item: ChatModelFunctionCall = {
      type: "functionCall",
      name: call.name,
      params: call.input,
      result: result ? (result.isError ? `Error: ${result.content}` : result.content) : "(no result)",
    };
    response.push(item);
  }
  return { type: "model", response };
}

/** Pictures cannot be shown to a text model: it is told one was there (the caption is in the text already). */
function userText(m: ChatMessage): string {
  const pictures = m.images?.length ? `[${m.images.length} picture(s) attached; this model cannot see pictures]\n` : "";
  return `${pictures}${m.content}`;
}
