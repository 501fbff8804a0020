/**
 * Which conversations the outside view reads (docs/spec.md §10): a local date range,
 * all or an even sample, optional keywords. Reads the chat log through
 * `conversationsStarted` (SELECT only) — the analysis never writes to it.
 */
import type { Db } from "../../foundation/store/db.ts";
import { conversationsStarted, type ConversationWithMessages } from "../../foundation/store/conversation-reader.ts";
import { addDays, localMidnight } from "../../foundation/util/time.ts";

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
export type SelectedConversation = ConversationWithMessages;

/**
 * The conversations of the selection, oldest first: the range and keywords
 * filter first, then the sample spreads over what is left.
 */
export function selectConversations(db: Db, selection: AnalysisSelection, timeZone: string): SelectedConversation[] {
  let conversations = conversationsStarted(db, {
    from: selection.from && localMidnight(selection.from, timeZone).toISOString(),
    to: selection.to && localMidnight(addDays(selection.to, 1), timeZone).toISOString(),
    userId: selection.userId,
  });
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
