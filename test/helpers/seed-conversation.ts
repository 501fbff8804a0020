import type { Lilo } from "../../core/index.ts";
import { ChatLog } from "../../core/foundation/store/chat-log.ts";
import { seedDb } from "./seed-db.ts";

/** One message to seed: role, text, ISO time; `recall` marks an answer written with recall passages. */
export type SeedMessage = [role: "user" | "assistant", text: string, at: string, recall?: boolean];

/**
 * Stores a whole conversation of its own straight into the chat log (no
 * model call), whatever the pause to the previous one; returns its id.
 */
export function seedConversation(lilo: Lilo, userId: string, messages: SeedMessage[]): number {
  const start = messages[0]![2];
  return seedDb(lilo, (sql) => {
    const info = sql.prepare(`INSERT INTO conversations (user_id, started_at, last_message_at, start_model) VALUES (?, ?, ?, NULL)`).run(userId, start, start);
    const conversationId = Number(info.lastInsertRowid);
    const chatLog = new ChatLog(sql);
    for (const [role, text, at, recall] of messages) {
      chatLog.append({
        userId,
        conversationId,
        role,
        text,
        createdAt: at,
        ...(role === "assistant" ? { model: "anthropic:test" } : {}),
        recallAnswer: !!recall,
      });
    }
    return conversationId;
  });
}
