import type { Persona } from "../../conversation/persona/persona.ts";
import type { Clock } from "../../foundation/ports/clock.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import type { ChatLog } from "../../foundation/store/chat-log.ts";
import type { ShortTermStore } from "../../foundation/store/short-term.ts";
import type { ModelRegistry } from "../../foundation/models/registry.ts";
import type { Db } from "../../foundation/store/db.ts";
import { writeTransaction } from "../../foundation/store/tx.ts";
import type { MarkerRegistry } from "../../conversation/markers/marker-registry.ts";
import { summarizePrevious } from "../../conversation/turn/short-term-summary.ts";

/** What storing a message Lilo sent on her own needs. */
export interface ProactiveDeps {
  /** Names the people in the summary of the conversation a push ends. */
  persona: Persona;
  /** A push after this pause opens a new conversation. */
  conversationPauseMinutes: number;
  clock: Clock;
  logger: Logger;
  chatLog: ChatLog;
  shortTerm: ShortTermStore;
  models: ModelRegistry;
  db: Db;
  /** The markers understood, stripped from the summary (the registry resolved in createLilo). */
  markers: MarkerRegistry;
}

/**
 * Stores a delivered push (greeting, 🧠 concern, diary ping) in the chat log
 * as Lilo's proactive message, so the user's reply to it is understood: the
 * next turn sees it in the history. Only delivered pushes are stored — what
 * never reached the user, she never said. A push after the pause opens a new
 * conversation, whose predecessor is summarised here (the reply continues
 * this conversation, so the turn would not summarise it).
 */
export async function recordProactive(deps: ProactiveDeps, userId: string, text: string, model: string | null): Promise<number> {
  const at = deps.clock.now();
  const { message, conversation } = writeTransaction(deps.db, () => {
    const conv = deps.chatLog.conversationAt(userId, at, deps.conversationPauseMinutes, model);
    const stored = deps.chatLog.append({ userId, conversationId: conv.id, role: "assistant", text, model, createdAt: at.toISOString(), proactive: true });
    return { message: stored, conversation: conv };
  });
  if (conversation.isNew && conversation.previous) await summarizePrevious(deps, userId, conversation.previous.id);
  return message.id;
}
