import type { Lilo, PushMessage, PushTarget, Transport } from "../../core/index.ts";

/**
 * Stores one exchange (the user's message, Lilo's answer a minute later)
 * straight into the chat log, without a model call or an embedding.
 */
export function seedExchange(lilo: Lilo, userId: string, userText: string, liloText: string, at: Date | string): void {
  const when = new Date(at);
  const answerAt = new Date(when.getTime() + 60_000);
  lilo.recall.importChat([
    { userId, role: "user", text: userText, createdAt: when },
    { userId, role: "assistant", text: liloText, model: "anthropic:test", createdAt: answerAt },
  ]);
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

/** Stores each text as a user message of its own on its own day (from 2026-10-01, 09:00 UTC), one conversation each; returns the ids in order. */
export function seedDailyMessages(lilo: Lilo, userId: string, texts: string[]): number[] {
  return lilo.recall.importChat(
    texts.map((text, d) => ({ userId, role: "user" as const, text, createdAt: `2026-10-${String(d + 1).padStart(2, "0")}T09:00:00Z` })),
  );
}
