import type { Lilo, PushMessage, PushTarget, Transport } from "../../core/index.ts";
import { inside } from "./internals.ts";

/**
 * Stores one exchange (the user's message, Lilo's answer a minute later)
 * straight into the chat log, without a model call or an embedding.
 */
export function seedExchange(lilo: Lilo, userId: string, userText: string, liloText: string, at: Date | string): void {
  const when = new Date(at);
  const conv = inside(lilo).stores.chatLog.conversationAt(userId, when, lilo.config.memory.conversationPauseMinutes, null);
  inside(lilo).stores.chatLog.append({ userId, conversationId: conv.id, role: "user", text: userText, createdAt: when.toISOString() });
  const answerAt = new Date(when.getTime() + 60_000).toISOString();
  inside(lilo).stores.chatLog.append({ userId, conversationId: conv.id, role: "assistant", text: liloText, model: "anthropic:test", createdAt: answerAt });
}

/** A push transport that records what it was asked to send. */
export function recordingTransport(name = "fake"): Transport & { sent: { target: PushTarget; message: PushMessage }[] } {
  const sent: { target: PushTarget; message: PushMessage }[] = [];
  return {
    name,
    sent,
    async send(target, message) {
      sent.push({ target, message });
    },
  };
}
