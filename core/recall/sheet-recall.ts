/**
 * One chat-log search for both the cheat sheet (automatic verbatim recall)
 * and [RECALL:]: relative time words are hard filters (SPEC §5.1), explicit
 * dates raise hits from that day, the remaining words are ranked by bm25
 * over each message and its neighbouring turns.
 */
import type { Clock } from "../ports/clock.ts";
import type { ChatSearch, RankedMessage, RecallPassage, RecallQuery } from "./search.ts";
import { parseTimeWords, foldWord } from "./time-words.ts";
import { parseExplicitDates, type DateRange } from "./explicit-dates.ts";

/** A free-text recall request taken apart. */
export interface ParsedRecall {
  terms: string[];
  query: Omit<RecallQuery, "userId" | "limit">;
  timeWords: string[];
  dates: DateRange[];
}

/** Splits free text into search words, relative-time filters and explicit dates. */
export function parseRecall(text: string, clock: Clock, timeZone: string): ParsedRecall {
  const dates = parseExplicitDates(text, clock, timeZone);
  const dateWords = new Set(dates.flatMap((d) => d.text.split(/[\s.,]+/)).filter(Boolean));
  const parsed = parseTimeWords(text, clock, timeZone);
  const terms = parsed.terms.filter((t) => !dateWords.has(foldWord(t)));
  return { terms, timeWords: parsed.timeWords, dates, query: { terms, filter: parsed.filter, dates: dates.map(({ from, to }) => ({ from, to })) } };
}

/** What a chat-log search needs. */
export interface ChatRecallDeps {
  recall: ChatSearch;
  clock: Clock;
  timeZone: string;
}

/** Options of one recall: whose log, how many, which conversation is running (never a hit). */
export interface ChatRecallOptions {
  userId: string;
  limit: number;
  excludeConversationId?: number | undefined;
}

/** Passages (hit with neighbours and local times) for free text, best first. */
export function recallPassages(deps: ChatRecallDeps, text: string, o: ChatRecallOptions): (RecallPassage & { score: number })[] {
  const p = parseRecall(text, deps.clock, deps.timeZone);
  return deps.recall.search({ ...p.query, userId: o.userId, limit: o.limit, ...(o.excludeConversationId !== undefined ? { excludeConversationId: o.excludeConversationId } : {}) });
}

/** The ranking behind `recallPassages`: single messages, best first (benchmarks score these). */
export function rankMessages(deps: ChatRecallDeps, text: string, o: ChatRecallOptions): RankedMessage[] {
  const p = parseRecall(text, deps.clock, deps.timeZone);
  return deps.recall.rank({ ...p.query, userId: o.userId, limit: o.limit, ...(o.excludeConversationId !== undefined ? { excludeConversationId: o.excludeConversationId } : {}) });
}
