/**
 * A free-text recall request taken apart: relative time words become a
 * filter (docs/spec.md §5.1), explicit dates become date ranges, and what
 * remains is searched as words.
 */
import type { Clock } from "../../foundation/ports/clock.ts";
import type { RecallQuery } from "./search.ts";
import { parseTimeWords, foldWord } from "./time-words.ts";
import { parseExplicitDates, type DateRange } from "./explicit-dates.ts";

/** A free-text recall request taken apart. */
export interface ParsedRecall {
  terms: string[];
  query: Omit<RecallQuery, "userId" | "limit">;
  timeWords: string[];
  dates: DateRange[];
  /** The text as written (its capitals name things: query-parts.ts). */
  text: string;
}

/** Splits free text into search words, relative-time filters and explicit dates. */
export function parseRecall(text: string, clock: Clock, timeZone: string): ParsedRecall {
  const dates = parseExplicitDates(text, clock, timeZone);
  const dateWords = new Set(dates.flatMap((d) => d.text.split(/[\s.,]+/)).filter(Boolean));
  const parsed = parseTimeWords(text, clock, timeZone);
  const terms = parsed.terms.filter((t) => !dateWords.has(foldWord(t)));
  return { text, terms, timeWords: parsed.timeWords, dates, query: { terms, filter: parsed.filter, dates: dates.map(({ from, to }) => ({ from, to })) } };
}
