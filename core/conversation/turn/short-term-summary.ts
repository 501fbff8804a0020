import type { ChatLog } from "../../foundation/store/chat-log.ts";
import type { ModelRegistry } from "../../foundation/models/registry.ts";
import type { Persona } from "../persona/persona.ts";
import { shortTermPrompt } from "../prompts/short-term.ts";
import { parseMarkers } from "../markers/parse.ts";
import type { MarkerRegistry } from "../markers/marker-registry.ts";
import type { Clock } from "../../foundation/ports/clock.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import type { ShortTermStore } from "../../foundation/store/short-term.ts";
import { describeError } from "../../foundation/errors.ts";

const MAX_MESSAGES = 40;
const MAX_CHARS_PER_MESSAGE = 600;

/** Summarises a finished conversation for the short-term memory; "" when there is nothing to say. */
async function summarizeConversation(
  deps: { chatLog: ChatLog; models: ModelRegistry; persona: Persona; markers: MarkerRegistry },
  userId: string,
  conversationId: number,
): Promise<string> {
  const messages = deps.chatLog.recent(conversationId, MAX_MESSAGES);
  // A conversation of nothing but a greeting Lilo pushed on her own has nothing to remember,
  // and its summary would push the real "where we left off" out of the short-term memory.
  if (!messages.some((m) => m.role === "user")) return "";
  const { name, language } = deps.persona;
  const user = deps.persona.userName(userId);
  const transcript = messages.map((m) => `${m.role === "user" ? user : name}: ${m.text.slice(0, MAX_CHARS_PER_MESSAGE)}`).join("\n");
  const reply = await deps.models.forRole("extraction").complete({
    system: shortTermPrompt({ userName: user, assistantName: name, language }),
    messages: [{ role: "user", content: transcript }],
    maxTokens: 400,
    temperature: 0.3,
    purpose: "summary",
    userId,
  });
  // Models sometimes add markers out of habit; they must not land in memory.
  return parseMarkers(reply.text, deps.markers).text;
}

/** Writes the short-term memory of the conversation that just ended, once (also used when a pushed greeting starts a new one). */
export async function summarizePrevious(
  deps: { persona: Persona; clock: Clock; logger: Logger; chatLog: ChatLog; models: ModelRegistry; shortTerm: ShortTermStore; markers: MarkerRegistry },
  userId: string,
  conversationId: number,
): Promise<void> {
  if (deps.shortTerm.hasSummary(conversationId)) return;
  try {
    const text = await summarizeConversation(deps, userId, conversationId);
    if (text) deps.shortTerm.add(userId, conversationId, text, deps.clock.now().toISOString());
  } catch (err) {
    // The new conversation still works without it; the next start tries again.
    deps.logger.warn("short-term summary failed", { userId, error: describeError(err) });
  }
}
