/**
 * The schedules the settings page offers instead of cron text: a time of day and the weekdays. A cron
 * pattern of that shape (`M H * * days`) reads back into one; any other pattern stays cron text.
 */
export interface Schedule {
  /** "HH:MM", local time. */
  time: string;
  /** Weekdays as cron numbers, 0 = Sunday … 6 = Saturday, ascending; all seven = every day. */
  days: number[];
}

const DAY_NAMES = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
const ALL_DAYS = [0, 1, 2, 3, 4, 5, 6];

/** The schedule a cron pattern stands for, or undefined when it is of another shape (hourly, a day of the month, …). */
export function scheduleOf(cron: string): Schedule | undefined {
  const parts = cron.trim().split(/\s+/);
  if (parts.length !== 5) return undefined;
  const [minute, hour, dom, month, dow] = parts as [string, string, string, string, string];
  if (!/^\d{1,2}$/.test(minute) || !/^\d{1,2}$/.test(hour) || Number(minute) > 59 || Number(hour) > 23) return undefined;
  if (dom !== "*" && dom !== "?") return undefined;
  if (month !== "*") return undefined;
  const days = weekdays(dow);
  if (!days) return undefined;
  return { time: `${hour.padStart(2, "0")}:${minute.padStart(2, "0")}`, days };
}

/** The cron pattern of a schedule: `M H * * *` every day, else the days as a list. */
export function cronOf(s: Schedule): string {
  const [h, m] = s.time.split(":").map(Number) as [number, number];
  const days = [...new Set(s.days)].sort((a, b) => a - b);
  return `${m} ${h} * * ${days.length === 7 ? "*" : days.join(",")}`;
}

/** The weekdays of a cron day-of-week field (`*`, numbers, names, ranges, lists), or undefined for steps, `L`, `#`. */
function weekdays(field: string): number[] | undefined {
  if (field === "*" || field === "?") return ALL_DAYS;
  const days = new Set<number>();
  for (const part of field.toLowerCase().split(",")) {
    const range = /^(\w+)(?:-(\w+))?$/.exec(part);
    const from = range && day(range[1]!);
    const to = range && (range[2] === undefined ? from : day(range[2]));
    if (from === undefined || to === undefined || from === null || to === null || to < from) return undefined;
    for (let d = from; d <= to; d++) days.add(d % 7); // 7 is Sunday too
  }
  return [...days].sort((a, b) => a - b);
}

function day(token: string): number | undefined {
  if (/^[0-7]$/.test(token)) return Number(token);
  const i = DAY_NAMES.indexOf(token);
  return i === -1 ? undefined : i;
}
