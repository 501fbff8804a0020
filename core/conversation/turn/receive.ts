import type { LiloConfig } from "../../foundation/config/config.ts";
import type { Clock } from "../../foundation/ports/clock.ts";
import type { Db } from "../../foundation/store/db.ts";
import type { ChatLog, ChatLogMessage, ReplyState } from "../../foundation/store/chat-log.ts";
import type { InboxStore } from "../../foundation/store/inbox.ts";
import { writeTransaction } from "../../foundation/store/tx.ts";
import { LiloError } from "../../foundation/errors.ts";
import { said } from "../../foundation/error-texts.ts";
import { normalizeText } from "../../foundation/util/text.ts";
import type { ImageInput } from "../../foundation/ports/chat-model.ts";
import type { IncomingMessage, TurnMiddleware } from "./types.ts";
import { budgetInput } from "./request-budget.ts";

/** What storing an incoming message needs. */
interface ReceiveDeps {
  config: { memory: Pick<LiloConfig["memory"], "conversationPauseMinutes"> };
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
 * Stores a user message before anything else happens to it (docs/spec.md §4.1), in
 * one IMMEDIATE transaction that waits for other writers instead of failing.
 * A message with a platform id is stored once: the adapters call this when
 * the platform hands the message over (before they acknowledge it), and the
 * turn calls it again later, which then finds the stored row.
 */
export function receiveMessage(deps: ReceiveDeps, msg: IncomingMessage, chatModel: string | null): Received {
  // Half an emoji or a NUL would be stored as invalid UTF-8 and refused by the platforms later.
  const text = normalizeText(msg.text).trim();
  if (!text) throw new LiloError("invalid-input", said("emptyMessage"));
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

/** The collaborators of the store-message middleware. */
interface StoreMessageServices extends Omit<ReceiveDeps, "config"> {
  /** "provider:model" a new conversation starts with, or null when no chat model is usable. */
  chatModel(): string | null;
  /** Writes the short-term memory of the conversation that just ended. */
  summarizePrevious(userId: string, conversationId: number): Promise<void>;
}

/**
 * The first middleware (docs/spec.md §4.1): stores a new message (a redelivered one
 * whose turn finished or runs elsewhere ends the turn: stored once, answered
 * once), summarises the previous conversation when this message opens a new
 * one, and reads the message as the model will (an oversized one shortened).
 * After the rest of the turn: a turn answered before the model (a yes/no, a
 * diary question) marks the message as no longer waiting.
 */
export function storeMessage(s: StoreMessageServices, config: ReceiveDeps["config"] & { budget: LiloConfig["budget"]; language: "de" | "en" }): TurnMiddleware {
  return {
    name: "store-message",
    async run(ctx, next) {
      const { input } = ctx;
      let message: ChatLogMessage;
      let images: ImageInput[] | undefined;
      if (input.kind === "new") {
        const got = receiveMessage({ config, clock: s.clock, db: s.db, chatLog: s.chatLog, inbox: s.inbox }, input.message, s.chatModel());
        if (got.duplicate && got.replyState !== "pending") {
          ctx.result = { ok: true, duplicate: true, text: "", userMessageId: got.message.id, notesUsed: [] };
          return;
        }
        message = got.message;
        images = input.message.unseenImages ? [] : input.message.images;
      } else {
        message = input.message;
        images = input.kind === "stored" ? input.images : undefined;
      }
      const opens = s.chatLog.opensConversation(message.conversationId, message.id);
      // A retry keeps the summary it already has; a first answer (also the reply to a greeting Lilo pushed) writes it.
      const previous = opens && input.kind !== "retry" ? s.inbox.previousConversation(message.userId, message.conversationId) : undefined;
      if (previous !== undefined) await s.summarizePrevious(message.userId, previous);
      // Stored whole, read shortened: an oversized message must not break this turn or the next ones.
      const read = budgetInput(message.text, config.budget, config.language);
      ctx.attach({
        userMessage: message,
        text: read.text,
        notice: read.notice,
        conversationId: message.conversationId,
        isNewConversation: opens,
        previousAnswer: s.chatLog.previousAssistant(message.conversationId, message.id),
        now: s.clock.now(),
        images,
      });
      await next();
      if (ctx.result && !ctx.replyRecorded) s.inbox.setReplyState(message.id, ctx.result.ok ? "answered" : "failed", s.clock.now().toISOString());
    },
  };
}
