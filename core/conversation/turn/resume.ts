import type { LiloConfig } from "../../foundation/config/config.ts";
import type { Clock } from "../../foundation/ports/clock.ts";
import type { Db } from "../../foundation/store/db.ts";
import type { ChatLog, ChatLogMessage } from "../../foundation/store/chat-log.ts";
import type { InboxStore } from "../../foundation/store/inbox.ts";
import type { Persona } from "../persona/persona.ts";
import { writeTransaction } from "../../foundation/store/tx.ts";
import { formatLocal } from "../../foundation/util/time.ts";
import { TURN_TEXTS } from "../prompts/turn-texts.ts";
import type { TurnResult } from "./types.ts";

/** What finishing a stored message uses. */
interface ResumeServices {
  clock: Clock;
  db: Db;
  chatLog: ChatLog;
  inbox: InboxStore;
  persona: Persona;
  /** Runs the turn for a stored message. */
  answerStored(message: ChatLogMessage): Promise<TurnResult>;
}

/**
 * Finishes a stored message after a restart (or after it waited in a queue):
 * answers it when its turn never finished, or hands back its stored answer
 * when that was not delivered. A message older than the inbox age limit is
 * only acknowledged ("I was offline; I saw your message from …") — an old
 * question answered as if it were new would confuse more than help.
 * Undefined when nothing is left to do (answered and delivered).
 */
export async function finishStored(
  s: ResumeServices,
  config: { inbox: Pick<LiloConfig["inbox"], "maxAgeMinutes">; timezone: string },
  messageId: number,
): Promise<TurnResult | undefined> {
  const message = s.chatLog.get(messageId);
  if (!message || message.role !== "user") return undefined;
  const state = s.inbox.replyState(messageId);
  if (state === "pending") {
    const ageMs = s.clock.now().getTime() - Date.parse(message.createdAt);
    if (ageMs > config.inbox.maxAgeMinutes * 60_000) return acknowledge(s, config.timezone, message);
    return s.answerStored(message);
  }
  const answer = s.inbox.answerTo(messageId);
  if (!answer || answer.delivery !== "pending") return undefined;
  return { ok: true, text: answer.text, userMessageId: messageId, answerMessageId: answer.id, ...(answer.model ? { model: answer.model } : {}), notesUsed: [] };
}

/** Stores and returns the short "I was offline" acknowledgement as the message's answer. */
function acknowledge(s: ResumeServices, timezone: string, message: ChatLogMessage): TurnResult {
  const language = s.persona.language;
  const text = TURN_TEXTS[language].offline(formatLocal(new Date(message.createdAt), timezone, language));
  const now = s.clock.now().toISOString();
  const stored = writeTransaction(s.db, () => {
    const a = s.chatLog.append({
      userId: message.userId,
      conversationId: message.conversationId,
      role: "assistant",
      text,
      createdAt: now,
      replyTo: message.id,
      delivery: "pending",
    });
    s.inbox.setReplyState(message.id, "acknowledged", now);
    return a;
  });
  return { ok: true, text, userMessageId: message.id, answerMessageId: stored.id, notesUsed: [] };
}
