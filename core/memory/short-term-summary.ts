import type { ChatLog } from "../store/chat-log.ts";
import type { ModelRegistry } from "../models/registry.ts";
import type { LiloConfig } from "../config.ts";
import { shortTermPrompt } from "../prompts/short-term.ts";
import { parseMarkers } from "../markers/parse.ts";

const MAX_MESSAGES = 40;
const MAX_CHARS_PER_MESSAGE = 600;

/** Summarises a finished conversation for the short-term memory; "" when there is nothing to say. */
export async function summarizeConversation(
  deps: { chatLog: ChatLog; models: ModelRegistry; config: LiloConfig },
  userId: string,
  conversationId: number,
): Promise<string> {
  const messages = deps.chatLog.recent(conversationId, MAX_MESSAGES);
  // A conversation of nothing but a greeting Lilo pushed on her own has nothing to remember,
  // and its summary would push the real "where we left off" out of the short-term memory.
  if (!messages.some((m) => m.role === "user")) return "";
  const { name, language, userNames } = deps.config.persona;
  const user = userNames[userId] ?? "User";
  const transcript = messages
    .map((m) => `${m.role === "user" ? user : name}: ${m.text.slice(0, MAX_CHARS_PER_MESSAGE)}`)
    .join("\n");
  const reply = await deps.models.forRole("extraction").complete({
    system: shortTermPrompt({ userName: user, assistantName: name, language }),
    messages: [{ role: "user", content: transcript }],
    maxTokens: 400,
    temperature: 0.3,
  });
  // Models sometimes add markers out of habit; they must not land in memory.
  return parseMarkers(reply.text).text;
}
