import type { Db } from "./db.ts";
import { toMessage, type ChatLogMessage, type RawMessage } from "./chat-log.ts";

/** One conversation with its messages, oldest first. */
export interface ConversationWithMessages {
  id: number;
  userId: string;
  title: string | null;
  startedAt: string;
  startModel: string | null;
  messages: (ChatLogMessage & { speaker?: string })[];
}

interface ConversationRow {
  id: number;
  user_id: string;
  title: string | null;
  started_at: string;
  start_model: string | null;
}

/**
 * The conversations started in [`from`, `to`) (ISO instants, either open),
 * of one user or all, oldest first, each with its messages; conversations
 * without a message are left out. SELECT statements only: the outside view
 * reads the chat log and never writes to it.
 */
export function conversationsStarted(
  db: Db,
  range: { from?: string | undefined; to?: string | undefined; userId?: string | undefined },
): ConversationWithMessages[] {
  const where: string[] = [];
  const args: string[] = [];
  if (range.from) {
    where.push("started_at >= ?");
    args.push(range.from);
  }
  if (range.to) {
    where.push("started_at < ?");
    args.push(range.to);
  }
  if (range.userId) {
    where.push("user_id = ?");
    args.push(range.userId);
  }
  const rows = db
    .prepare(
      `SELECT id, user_id, title, started_at, start_model FROM conversations ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY started_at, id`,
    )
    .all(...args) as ConversationRow[];
  const messagesOf = db.prepare(`SELECT * FROM messages WHERE conversation_id = ? ORDER BY created_at, id`);
  return rows
    .map((r) => ({
      id: r.id,
      userId: r.user_id,
      title: r.title,
      startedAt: r.started_at,
      startModel: r.start_model,
      // An imported chat's other party keeps its name (`speaker`), so no reader takes their lines for the person's or Lilo's.
      messages: (messagesOf.all(r.id) as (RawMessage & { speaker: string | null })[]).map((m) => ({
        ...toMessage(m),
        ...(m.speaker ? { speaker: m.speaker } : {}),
      })),
    }))
    .filter((c) => c.messages.length > 0);
}
