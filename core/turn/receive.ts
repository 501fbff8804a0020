import type { LiloConfig } from "../config.ts";
import type { Clock } from "../ports/clock.ts";
import type { Db } from "../store/db.ts";
import type { ChatLog, ChatLogMessage, ReplyState } from "../store/chat-log.ts";
import type { InboxStore } from "../store/inbox.ts";
import { writeTransaction } from "../store/tx.ts";
import { LiloError } from "../errors.ts";
import { normalizeText } from "../util/text.ts";
import type { IncomingMessage } from "./types.ts";

/** What storing an incoming message needs. */
export interface ReceiveDeps {
  config: LiloConfig;
  clock: Clock;
  db: Db;
  chatLog: ChatLog;
  inbox: InboxStore;
}

/** A stored user message and how far its turn got. */
export interface Received {
  message: ChatLogMessage;
  replyState: ReplyState;
  /** It had arrived before (same platform id): stored once, not again. */
  duplicate: boolean;
}

/**
 * Stores a user message before anything else happens to it (SPEC §4.1), in
 * one IMMEDIATE transaction that waits for other writers instead of failing.
 * A message with a platform id is stored once: the adapters call this when
 * the platform hands the message over (before they acknowledge it), and the
 * turn calls it again later, which then finds the stored row.
 */
export function receiveMessage(deps: ReceiveDeps, msg: IncomingMessage, chatModel: string | null): Received {
  // Half an emoji or a NUL would be stored as invalid UTF-8 and refused by the platforms later.
  const text = normalizeText(msg.text).trim();
  if (!text) throw new LiloError("invalid-input", "An empty message cannot be answered");
  const transport = msg.transport;
  const externalId = transport && msg.externalId ? msg.externalId : undefined;
  return writeTransaction(deps.db, () => {
    const known = externalId ? deps.inbox.findExternal(transport!, externalId) : undefined;
    if (known) return { ...known, duplicate: true };
    const now = deps.clock.now();
    const conv = deps.chatLog.conversationAt(msg.userId, now, deps.config.memory.conversationPauseMinutes, chatModel);
    const message = deps.chatLog.append({
      userId: msg.userId,
      conversationId: conv.id,
      role: "user",
      text,
      createdAt: now.toISOString(),
      origin: { transport, chatId: msg.chatId, externalId },
      replyState: "pending",
    });
    return { message, replyState: "pending" as const, duplicate: false };
  });
}
