/**
 * Which conversations the outside view reads (SPEC §10): a local date range,
 * all or an even sample, optional keywords. Reads the chat log with SELECT
 * statements only — the analysis never writes to the chat database.
 */
import type { Db } from "../store/db.ts";
import { toMessage, type ChatLogMessage, type RawMessage } from "../store/chat-log.ts";
import { addDays, localMidnight } from "../util/time.ts";

/** What to analyse; dates are local calendar days (YYYY-MM-DD), both inclusive. */
export interface AnalysisSelection {
  from?: string | undefined;
  to?: string | undefined;
  /** An even sample of this many conversations (first, last, evenly spaced between); all when absent. */
  sample?: number | undefined;
  /** Only conversations with a message containing any of these (case-insensitive). */
  keywords?: string[] | undefined;
  /** Only this user's conversations; all users when absent. */
  userId?: string | undefined;
}

/** One conversation with its messages, oldest first. */
export interface SelectedConversation {
  id: number;
  userId: string;
  title: string | null;
  startedAt: string;
  startModel: string | null;
  messages: ChatLogMessage[];
}

interface ConversationRow {
  id: number;
  user_id: string;
  title: string | null;
  started_at: string;
  start_model: string | null;
}

/**
 * The conversations of the selection, oldest first: the range and keywords
 * filter first, then the sample spreads over what is left.
 */
export function selectConversations(db: Db, selection: AnalysisSelection, timeZone: string): SelectedConversation[] {
  const where: string[] = [];
  const args: string[] = [];
  if (selection.from) {
    where.push("started_at >= ?");
    args.push(localMidnight(selection.from, timeZone).toISOString());
  }
  if (selection.to) {
    where.push("started_at < ?");
    args.push(localMidnight(addDays(selection.to, 1), timeZone).toISOString());
  }
  if (selection.userId) {
    where.push("user_id = ?");
    args.push(selection.userId);
  }
  const rows = db
    .prepare(`SELECT id, user_id, title, started_at, start_model FROM conversations ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY started_at, id`)
    .all(...args) as ConversationRow[];
  const messagesOf = db.prepare(`SELECT * FROM messages WHERE conversation_id = ? ORDER BY created_at, id`);
  let conversations = rows
    .map((r) => ({
      id: r.id,
      userId: r.user_id,
      title: r.title,
      startedAt: r.started_at,
      startModel: r.start_model,
      messages: (messagesOf.all(r.id) as RawMessage[]).map(toMessage),
    }))
    .filter((c) => c.messages.length > 0);
  const keywords = (selection.keywords ?? []).map((k) => k.trim().toLocaleLowerCase()).filter(Boolean);
  if (keywords.length) conversations = conversations.filter((c) => c.messages.some((m) => containsAny(m.text, keywords)));
  return selection.sample ? sampleEven(conversations, selection.sample) : conversations;
}

/**
 * `n` items spread evenly over the list: the first, the last and evenly
 * spaced ones between (the seed's sample_even), so not only recent weeks count.
 */
export function sampleEven<T>(items: T[], n: number): T[] {
  if (n <= 0 || n >= items.length) return items;
  if (n === 1) return [items[Math.floor(items.length / 2)]!];
  const idx = [...new Set(Array.from({ length: n }, (_, i) => Math.round((i * (items.length - 1)) / (n - 1))))].sort((a, b) => a - b);
  return idx.map((i) => items[i]!);
}

function containsAny(text: string, keywords: string[]): boolean {
  const lower = text.toLocaleLowerCase();
  return keywords.some((k) => lower.includes(k));
}
