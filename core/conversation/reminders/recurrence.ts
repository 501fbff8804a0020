import { dayPlus, daysInMonth, localInstant, wallTimeOf, weekdayOf, type WallTime } from "../../foundation/util/local-time.ts";

export { recurrenceSchema, readRecurrence, type Recurrence } from "../../foundation/util/recurrence-rule.ts";
import type { Recurrence } from "../../foundation/util/recurrence-rule.ts";

const at = (rule: { at: string }) => ({ hour: Number(rule.at.slice(0, 2)), minute: Number(rule.at.slice(3, 5)) });

/** Does a rule of a calendar kind ring on this local day? */
function ringsOn(rule: Recurrence, day: WallTime): boolean {
  const wd = weekdayOf(day);
  switch (rule.every) {
    case "day":
      return true;
    case "weekday":
      return wd >= 1 && wd <= 5;
    case "week":
      return rule.days.includes(wd);
    case "month":
      return day.day === Math.min(rule.day, daysInMonth(day.year, day.month));
    default:
      return false;
  }
}

/** The whole days between two local calendar days. */
function daysBetween(a: WallTime, b: WallTime): number {
  return Math.round((Date.UTC(b.year, b.month - 1, b.day) - Date.UTC(a.year, a.month - 1, a.day)) / 86_400_000);
}

/**
 * The first occurrence of a rule strictly after `after`, in `timeZone`.
 * `anchor` is the occurrence the interval rules count from (the previous one
 * or the first); the calendar rules do not need it. After a long downtime
 * this jumps straight to the next occurrence, never walking the missed ones.
 */
export function nextOccurrence(rule: Recurrence, timeZone: string, after: Date, anchor: Date = after): Date {
  if (rule.every === "hours") {
    const step = rule.n * 3_600_000;
    const k = Math.max(1, Math.floor((after.getTime() - anchor.getTime()) / step) + 1);
    return new Date(anchor.getTime() + k * step);
  }
  const time = at(rule);
  if (rule.every === "days") {
    const start = wallTimeOf(anchor, timeZone);
    const passed = Math.max(0, daysBetween(start, wallTimeOf(after, timeZone)));
    for (let k = Math.floor(passed / rule.n); ; k++) {
      const t = localInstant({ ...dayPlus(start, k * rule.n), ...time }, timeZone);
      if (t > after) return t;
    }
  }
  const first = wallTimeOf(after, timeZone);
  // Every calendar rule rings within 62 days (a 31st in two short months still rings on their last days).
  for (let i = 0; i <= 62; i++) {
    const day = dayPlus(first, i);
    if (!ringsOn(rule, day)) continue;
    const t = localInstant({ ...day, ...time }, timeZone);
    if (t > after) return t;
  }
  throw new Error(`recurrence without an occurrence: ${JSON.stringify(rule)}`);
}

/**
 * The latest occurrence at or before `now`, counting from `due` (an occurrence
 * itself): after a downtime, the one occurrence worth catching up. Looks back
 * at most 32 days, so a long downtime costs a few steps, not one per missed day.
 */
export function latestOccurrence(rule: Recurrence, timeZone: string, due: Date, now: Date): Date {
  let last = due;
  const from = new Date(Math.max(due.getTime(), now.getTime() - 32 * 86_400_000));
  for (let next = from > due ? nextOccurrence(rule, timeZone, from, due) : nextOccurrence(rule, timeZone, due, due); next <= now;) {
    last = next;
    next = nextOccurrence(rule, timeZone, next, due);
  }
  return last;
}
