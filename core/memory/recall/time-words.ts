/**
 * Time words in a recall query (docs/spec.md §5.1): not search terms but hard
 * filters. Day words narrow the date, day parts the local hour, and both
 * combine ("gestern abends" = yesterday from 17 h); a day part alone applies
 * to every day. Days are local days in the configured time zone, so a filter
 * stays right across DST changes and around midnight UTC.
 */
import type { Clock } from "../../foundation/ports/clock.ts";
import { addDays, localDay, localMidnight } from "../../foundation/util/time.ts";

/** The four day parts and their local hours [from, to). They overlap on purpose (seed). */
export const DAY_PARTS = {
  morning: { fromHour: 0, toHour: 12 },
  noon: { fromHour: 11, toHour: 15 },
  afternoon: { fromHour: 12, toHour: 18 },
  evening: { fromHour: 17, toHour: 24 },
} as const;

export type DayPartName = keyof typeof DAY_PARTS;

/** Local hours a hit must fall in: fromHour ≤ hour < toHour. */
export interface DayPart {
  fromHour: number;
  toHour: number;
}

/** Hard filters for the chat-log search; all optional, all combined with AND. */
export interface TimeFilter {
  /** Earliest instant, inclusive (ISO UTC, like `created_at`). */
  from?: string;
  /** Latest instant, exclusive (ISO UTC). */
  to?: string;
  dayPart?: DayPart;
}

/** A recall query split into search words and time filters. */
export interface ParsedRecallQuery {
  /** The words left to search for, as written. */
  terms: string[];
  filter: TimeFilter;
  /** The time words found, as written ("gestern", "am Abend"): for the follow-up prompt. */
  timeWords: string[];
}

/** Days relative to today (inclusive range) and/or a day part. */
interface Effect {
  days?: readonly [number, number];
  part?: DayPartName;
}

const TODAY = { days: [0, 0] } as const;
const YESTERDAY = { days: [-1, -1] } as const;
const DAY_BEFORE = { days: [-2, -2] } as const;
const LAST_WEEK = { days: [-6, 0] } as const; // the last 7 days including today
const MORNING = { part: "morning" } as const;
const NOON = { part: "noon" } as const;
const AFTERNOON = { part: "afternoon" } as const;
const EVENING = { part: "evening" } as const;

/**
 * Phrases in folded spelling (lower case, no diacritics, ß → ss). Day parts
 * work with and without the "-s" ("am Abend", "Abend", "abends"), as in the
 * seed. "morgen" means *morning*: a look back cannot mean tomorrow.
 */
const PHRASES: ReadonlyArray<readonly [string, Effect]> = [
  ["heute", TODAY],
  ["today", TODAY],
  ["gestern", YESTERDAY],
  ["yesterday", YESTERDAY],
  ["vorgestern", DAY_BEFORE],
  ["the day before yesterday", DAY_BEFORE],
  ["day before yesterday", DAY_BEFORE],
  ["letzte woche", LAST_WEEK],
  ["letzten woche", LAST_WEEK],
  ["vergangene woche", LAST_WEEK],
  ["vergangenen woche", LAST_WEEK],
  ["last week", LAST_WEEK],
  ["past week", LAST_WEEK],
  ["morgens", MORNING],
  ["morgen", MORNING],
  ["am morgen", MORNING],
  ["fruh", MORNING],
  ["vormittags", MORNING],
  ["vormittag", MORNING],
  ["am vormittag", MORNING],
  ["in the morning", MORNING],
  ["morning", MORNING],
  ["mittags", NOON],
  ["mittag", NOON],
  ["am mittag", NOON],
  ["at noon", NOON],
  ["noon", NOON],
  ["at midday", NOON],
  ["midday", NOON],
  ["nachmittags", AFTERNOON],
  ["nachmittag", AFTERNOON],
  ["am nachmittag", AFTERNOON],
  ["in the afternoon", AFTERNOON],
  ["afternoon", AFTERNOON],
  ["abends", EVENING],
  ["abend", EVENING],
  ["am abend", EVENING],
  ["in the evening", EVENING],
  ["evening", EVENING],
  ["tonight", { ...TODAY, ...EVENING }],
  ["last night", { ...YESTERDAY, ...EVENING }],
  ["this morning", { ...TODAY, ...MORNING }],
  ["this afternoon", { ...TODAY, ...AFTERNOON }],
  ["this evening", { ...TODAY, ...EVENING }],
];

/** Longest phrases first, so "am Abend" wins over "Abend" and "the day before yesterday" over "yesterday". */
const TABLE = PHRASES.map(([phrase, effect]) => ({ words: phrase.split(" "), effect })).sort((a, b) => b.words.length - a.words.length);

/** Case- and diacritics-insensitive spelling of one word. */
export function foldWord(word: string): string {
  return word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replaceAll("ß", "ss");
}

/** Whole words (letters, digits) of a text, as written. */
function words(text: string): string[] {
  return text.normalize("NFC").match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
}

/**
 * Splits a recall query into search words and time filters, with "today"
 * taken from the clock in the given time zone. Several day words widen the
 * range (min to max); several day parts widen the hours likewise.
 */
export function parseTimeWords(query: string, clock: Clock, timeZone: string): ParsedRecallQuery {
  const tokens = words(query);
  const folded = tokens.map(foldWord);
  const terms: string[] = [];
  const timeWords: string[] = [];
  let days: [number, number] | undefined;
  let part: DayPart | undefined;
  for (let i = 0; i < tokens.length;) {
    const hit = TABLE.find((p) => p.words.every((w, j) => folded[i + j] === w));
    if (!hit) {
      terms.push(tokens[i]!);
      i++;
      continue;
    }
    const { days: d, part: name } = hit.effect;
    if (d) days = days ? [Math.min(days[0], d[0]), Math.max(days[1], d[1])] : [d[0], d[1]];
    if (name) {
      const p = DAY_PARTS[name];
      part = part ? { fromHour: Math.min(part.fromHour, p.fromHour), toHour: Math.max(part.toHour, p.toHour) } : { ...p };
    }
    timeWords.push(tokens.slice(i, i + hit.words.length).join(" "));
    i += hit.words.length;
  }
  const filter: TimeFilter = {};
  if (days) {
    const today = localDay(clock.now(), timeZone);
    filter.from = localMidnight(addDays(today, days[0]), timeZone).toISOString();
    filter.to = localMidnight(addDays(today, days[1] + 1), timeZone).toISOString();
  }
  if (part) filter.dayPart = part;
  return { terms, filter, timeWords };
}
