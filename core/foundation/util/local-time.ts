import { localParts } from "./time.ts";

/** A local calendar day and clock time in some time zone (month 1–12). */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const DAY_MS = 86_400_000;

/** The wall time an instant shows in a time zone, as if it were UTC (ms): the offset is `shown - instant`. */
function shownAt(t: number, timeZone: string): number {
  const p = localParts(new Date(t), timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
}

/**
 * The instant a local wall time happens in a time zone, by the zone rules of
 * the runtime's time zone database (Intl), the same rules croner reads.
 * Where daylight saving makes the time ambiguous it resolves as Temporal's
 * "compatible" rule does: a time that happens twice (autumn, 02:30 in
 * Berlin) is the earlier one, so a reminder rings once; a time that is
 * skipped (spring, 02:30 in Berlin) moves forward by the gap (03:30), so it
 * still rings that day instead of never.
 */
export function localInstant(w: WallTime, timeZone: string): Date {
  const wall = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
  const before = shownAt(wall - DAY_MS, timeZone) - (wall - DAY_MS);
  const after = shownAt(wall + DAY_MS, timeZone) - (wall + DAY_MS);
  const candidates = [...new Set([wall - before, wall - after])].filter((t) => shownAt(t, timeZone) === wall).sort((a, b) => a - b);
  // Skipped: read the wall time with the offset before the change, which lands the gap's length later.
  return new Date(candidates[0] ?? wall - before);
}

/** The local wall time of an instant in a time zone. */
export function wallTimeOf(d: Date, timeZone: string): WallTime {
  const p = localParts(d, timeZone);
  return { year: p.year, month: p.month, day: p.day, hour: p.hour, minute: p.minute };
}

/** The weekday of a calendar day, 0 = Sunday … 6 = Saturday. */
export function weekdayOf(w: Pick<WallTime, "year" | "month" | "day">): number {
  return new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay();
}

/** The calendar day `days` after a day (pure calendar arithmetic, no time zone involved). */
export function dayPlus<T extends Pick<WallTime, "year" | "month" | "day">>(w: T, days: number): T {
  const d = new Date(Date.UTC(w.year, w.month - 1, w.day + days));
  return { ...w, year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** How many days a month has (month 1–12). */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Is this a real calendar date (no 31 February)? */
export function isRealDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}
