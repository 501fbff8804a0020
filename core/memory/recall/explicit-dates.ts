/**
 * Explicit dates in a message, German and English: "am 3. Mai", "3. Mai
 * 2023", "on 13 October", "October 13, 2023", "im Oktober 2023", "in May",
 * "last summer" / "letzten Sommer". They do not filter (a message may name a
 * date in passing) but raise hits from that day, month or season. A date
 * without a year means its latest occurrence up to today. Relative words
 * ("gestern", "letzte Woche") are time-words.ts's business (docs/spec.md §5.1).
 */
import type { Clock } from "../../foundation/ports/clock.ts";
import { foldWord } from "./time-words.ts";
import { addDays, localDay, localMidnight } from "../../foundation/util/time.ts";

/** A named range in local days, `to` exclusive, as ISO UTC instants for SQL. */
export interface DateRange {
  from: string;
  to: string;
  /** The words that named it, as found (folded). */
  text: string;
}

const MONTHS: Record<string, number> = {
  januar: 1,
  janner: 1,
  jan: 1,
  january: 1,
  februar: 2,
  feb: 2,
  february: 2,
  marz: 3,
  maerz: 3,
  march: 3,
  mar: 3,
  april: 4,
  apr: 4,
  mai: 5,
  may: 5,
  juni: 6,
  june: 6,
  jun: 6,
  juli: 7,
  july: 7,
  jul: 7,
  august: 8,
  aug: 8,
  september: 9,
  sept: 9,
  sep: 9,
  oktober: 10,
  october: 10,
  okt: 10,
  oct: 10,
  november: 11,
  nov: 11,
  dezember: 12,
  december: 12,
  dez: 12,
  dec: 12,
};
const SEASONS: Record<string, readonly [number, number]> = {
  // [first month, months long]; winter starts in December
  sommer: [6, 3],
  summer: [6, 3],
  herbst: [9, 3],
  autumn: [9, 3],
  fall: [9, 3],
  winter: [12, 3],
  fruhling: [3, 3],
  spring: [3, 3],
};
const MONTH = `(${Object.keys(MONTHS).join("|")})`;
const DAY_MONTH = new RegExp(`\\b(\\d{1,2})(?:\\.|st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH}\\b\\.?(?:,?\\s+(\\d{4}))?`, "g");
const MONTH_DAY = new RegExp(`\\b${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?:,?\\s+(\\d{4}))?`, "g");
const NUMERIC = /\b(\d{1,2})\.(\d{1,2})\.(\d{4})?/g;
const IN_MONTH = new RegExp(`\\b(?:im|in|during|seit|since)\\s+${MONTH}\\b(?:\\s+(\\d{4}))?`, "g");
const LAST_SEASON = /\b(?:letzten|letzter|vergangenen|last|past)\s+(sommer|summer|herbst|autumn|fall|winter|fruhling|spring)\b/g;

/** Every explicit date range in the text, relative to the clock's today in `timeZone`. */
export function parseExplicitDates(text: string, clock: Clock, timeZone: string): DateRange[] {
  const t = foldWord(text);
  const today = localDay(clock.now(), timeZone);
  const [ty, tm, td] = today.split("-").map(Number) as [number, number, number];
  const out: DateRange[] = [];
  const range = (fromDay: string, toDay: string, words: string) =>
    out.push({ from: localMidnight(fromDay, timeZone).toISOString(), to: localMidnight(toDay, timeZone).toISOString(), text: words.trim() });
  const day = (d: number, m: number, y: number | undefined, words: string) => {
    if (m < 1 || m > 12 || d < 1 || d > 31) return;
    const year = y ?? (m < tm || (m === tm && d <= td) ? ty : ty - 1);
    const iso = `${year}-${pad(m)}-${pad(d)}`;
    range(iso, addDays(iso, 1), words);
  };
  const covered: [number, number][] = [];
  const take = (re: RegExp, fn: (m: RegExpExecArray) => void) => {
    for (const m of t.matchAll(re)) {
      if (covered.some(([a, b]) => m.index < b && m.index + m[0].length > a)) continue;
      covered.push([m.index, m.index + m[0].length]);
      fn(m);
    }
  };
  take(DAY_MONTH, (m) => day(Number(m[1]), MONTHS[m[2]!]!, m[3] ? Number(m[3]) : undefined, m[0]));
  take(MONTH_DAY, (m) => day(Number(m[2]), MONTHS[m[1]!]!, m[3] ? Number(m[3]) : undefined, m[0]));
  take(NUMERIC, (m) => day(Number(m[1]), Number(m[2]), m[3] ? Number(m[3]) : undefined, m[0]));
  take(IN_MONTH, (m) => {
    const month = MONTHS[m[1]!]!;
    const year = m[2] ? Number(m[2]) : month <= tm ? ty : ty - 1;
    range(`${year}-${pad(month)}-01`, monthStart(year, month + 1), m[0]);
  });
  take(LAST_SEASON, (m) => {
    const [first, len] = SEASONS[m[1]!]!;
    // The latest season of that name that has ended before today.
    let year = ty;
    while (monthStart(year, first + len) > today) year--;
    range(monthStart(year, first), monthStart(year, first + len), m[0]);
  });
  return out;
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

/** First day of a month; months past 12 roll into the next year. */
function monthStart(year: number, month: number): string {
  const y = year + Math.floor((month - 1) / 12);
  const m = ((month - 1) % 12) + 1;
  return `${y}-${pad(m)}-01`;
}
