import type { ChatLogMessage } from "../store/chat-log.ts";
import { writeTransaction } from "../store/tx.ts";
import { formatLocal } from "../util/time.ts";
import { TURN_TEXTS } from "../prompts/turn-texts.ts";
import { answerStored, type TurnDeps } from "./turn.ts";
import type { TurnResult } from "./types.ts";

/**
 * Finishes a stored message after a restart (or after it waited in a queue):
 * answers it when its turn never finished, or hands back its stored answer
 * when that was not delivered. A message older than the inbox age limit is
 * only acknowledged ("I was offline; I saw your message from …") — an old
 * question answered as if it were new would confuse more than help.
 * Undefined when nothing is left to do (answered and delivered).
 */
export async function finishStored(deps: TurnDeps, messageId: number): Promise<TurnResult | undefined> {
  const message = deps.chatLog.get(messageId);
  if (!message || message.role !== "user") return undefined;
  const state = deps.inbox.replyState(messageId);
  if (state === "pending") {
    const ageMs = deps.clock.now().getTime() - Date.parse(message.createdAt);
    if (ageMs > deps.config.inbox.maxAgeMinutes * 60_000) return acknowledge(deps, message);
    return answerStored(deps, message);
  }
  const answer = deps.inbox.answerTo(messageId);
  if (!answer || answer.delivery !== "pending") return undefined;
  return { ok: true, text: answer.text, userMessageId: messageId, answerMessageId: answer.id, ...(answer.model ? { model: answer.model } : {}), notesUsed: [] };
}

/** Stores and returns the short "I was offline" acknowledgement as the message's answer. */
function acknowledge(deps: TurnDeps, message: ChatLogMessage): TurnResult {
  const { persona, timezone } = deps.config;
  const text = TURN_TEXTS[persona.language].offline(formatLocal(new Date(message.createdAt), timezone, persona.language));
  const now = deps.clock.now().toISOString();
  const stored = writeTransaction(deps.db, () => {
    const a = deps.chatLog.append({ userId: message.userId, conversationId: message.conversationId, role: "assistant", text, createdAt: now, replyTo: message.id, delivery: "pending" });
    deps.inbox.setReplyState(message.id, "acknowledged", now);
    return a;
  });
  return { ok: true, text, userMessageId: message.id, answerMessageId: stored.id, notesUsed: [] };
}
