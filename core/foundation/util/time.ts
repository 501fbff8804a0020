import { dateFormat } from "./date-format.ts";
/** Formats an instant as local date and time in a time zone, e.g. "Mittwoch, 2. Dezember 2026, 14:05". */
export function formatLocal(d: Date, timeZone: string, language: "de" | "en"): string {
  return dateFormat(language === "de" ? "de-DE" : "en-GB", {
    timeZone,
    weekday: "long",
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  }).format(d);
}

/** The local calendar day (YYYY-MM-DD) of an instant in a time zone. */
export function localDay(d: Date, timeZone: string): string {
  return dateFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(d);
}

/** Local calendar fields of an instant in a time zone (hour 0–23). */
export function localParts(d: Date, timeZone: string): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const f = dateFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  });
  const parts = f.formatToParts(d);
  const num = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: num("year"), month: num("month"), day: num("day"), hour: num("hour"), minute: num("minute"), second: num("second") };
}

/** The local hour (0–23) of an instant in a time zone. */
export function localHour(d: Date, timeZone: string): number {
  return localParts(d, timeZone).hour;
}

/** "YYYY-MM-DD HH:MM" in local time: short and unambiguous for a model. */
export function formatLocalShort(d: Date, timeZone: string): string {
  const p = localParts(d, timeZone);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${p.year}-${two(p.month)}-${two(p.day)} ${two(p.hour)}:${two(p.minute)}`;
}

/** A local calendar day (YYYY-MM-DD) moved by `days`; pure calendar arithmetic, no time zone involved. */
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/**
 * The instant local midnight starts `day` (YYYY-MM-DD) in a time zone. DST-safe:
 * the offset is read at the result itself, so a 23- or 25-hour day ends where
 * the next one starts. (Where midnight itself is skipped, the first local hour.)
 */
export function localMidnight(day: string, timeZone: string): Date {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return wallTimeIn(Date.UTC(y, m - 1, d), timeZone);
}

/**
 * The instant a wall-clock time shows in a time zone. `wall` is that time
 * written as if it were UTC (`Date.UTC(year, month - 1, day, hour, …)`); the
 * zone's offset is read at the result itself, so a time next to a DST change
 * lands on the right side of it (a time the change skips moves past it).
 */
export function wallTimeIn(wall: number, timeZone: string): Date {
  let t = wall;
  for (let i = 0; i < 3; i++) {
    const p = localParts(new Date(t), timeZone);
    const shown = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
    const next = t + (wall - shown);
    if (next === t) break;
    t = next;
  }
  return new Date(t);
}
