/**
 * Imports chat messages written elsewhere (an export of another Lilo, a
 * benchmark's dialogues) into the chat log in time order, grouped into
 * conversations by the same pause rule as live chat. Each message keeps its
 * original time; the keyword index (with neighbours) follows by trigger.
 */
import type { Db } from "./db.ts";
import type { ChatLog, Role } from "./chat-log.ts";
import { LiloError } from "../errors.ts";

/** One message to import. */
export interface ImportedMessage {
  userId: string;
  role: Role;
  text: string;
  /** ISO time (or Date) the message was written. */
  createdAt: string | Date;
  model?: string | null;
}

/**
 * Appends the messages (sorted by time, stable) in one transaction; returns
 * the new message ids in input order. An empty text or a bad date rejects
 * the whole import before anything is written.
 */
export function importMessages(db: Db, chatLog: ChatLog, messages: ImportedMessage[], pauseMinutes: number): number[] {
  const items = messages.map((m, i) => {
    const at = new Date(m.createdAt);
    if (Number.isNaN(at.getTime())) throw new LiloError("invalid-input", `message ${i + 1}: "${String(m.createdAt)}" is not a date`);
    if (!m.text.trim()) throw new LiloError("invalid-input", `message ${i + 1}: empty text`);
    return { m, at, i };
  });
  const ids: number[] = new Array<number>(items.length);
  db.transaction(() => {
    for (const { m, at, i } of [...items].sort((a, b) => a.at.getTime() - b.at.getTime() || a.i - b.i)) {
      const conv = chatLog.conversationAt(m.userId, at, pauseMinutes, m.model ?? null);
      ids[i] = chatLog.append({
        userId: m.userId,
        conversationId: conv.id,
        role: m.role,
        text: m.text.trim(),
        model: m.model ?? null,
        createdAt: at.toISOString(),
      }).id;
    }
  })();
  return ids;
}
