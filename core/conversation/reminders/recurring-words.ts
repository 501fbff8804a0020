import type { Recurrence } from "./recurrence.ts";

/**
 * Lilo's own reading of recurring phrases in German and English ("jeden
 * Montag um 8", "werktags 7:30", "every weekday at 7:30", "alle 2 Stunden",
 * "every month on the 31st"), which chrono does not read: it sees the next
 * Monday, not every one.
 */

const WEEKDAYS: Record<string, number> = {
  sonntag: 0,
  montag: 1,
  dienstag: 2,
  mittwoch: 3,
  donnerstag: 4,
  freitag: 5,
  samstag: 6,
  sonnabend: 6,
  sunday: 0,
  monday: 1,
  tuesday: 2,
  wednesday: 3,
  thursday: 4,
  friday: 5,
  saturday: 6,
};

const NUMBER_WORDS: Record<string, number> = {
  ein: 1,
  eine: 1,
  einen: 1,
  zwei: 2,
  drei: 3,
  vier: 4,
  fünf: 5,
  sechs: 6,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
};

/** Parts of the day and the clock time each stands for, when no time is named. */
const DAYPARTS: [RegExp, string][] = [
  [/^(früh|morgens|vormittags?|in the morning|morning)\b/, "08:00"],
  [/^(mittags?|noon|midday|at noon)\b/, "12:00"],
  [/^(nachmittags?|in the afternoon|afternoon)\b/, "15:00"],
  [/^(abends?|in the evening|evening|tonight)\b/, "19:00"],
  [/^(nachts?|at night|night)\b/, "21:00"],
];

const DAY_NAME = `(${Object.keys(WEEKDAYS).join("|")})`;
const LIST_JOIN = `(?:\\s*,\\s*|\\s+(?:und|and|&)\\s+)`;

/** A phrase read from the start of the text, and how much of the text it took. */
interface Read<T> {
  value: T;
  length: number;
}

/** A clock time at the start ("um 8", "at 7:30", "8.15 Uhr", "6pm") as "HH:MM"; undefined when there is none or it is no time of day. */
export function readClockTime(text: string): Read<string> | undefined {
  const m = /^(?:(?:um|at|@)\s*)?(\d{1,2})(?:[:.](\d{2}))?\s*(uhr|h\b|am\b|pm\b|a\.m\.|p\.m\.)?/i.exec(text);
  if (!m || (m[2] === undefined && m[3] === undefined && !/^(um|at|@)/i.test(text))) return undefined;
  let hour = Number(m[1]);
  const minute = Number(m[2] ?? 0);
  const meridiem = m[3]?.toLowerCase().replace(/\./g, "");
  if (meridiem === "pm" && hour < 12) hour += 12;
  if (meridiem === "am" && hour === 12) hour = 0;
  if (hour > 23 || minute > 59) return undefined;
  return { value: `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`, length: m[0].length };
}

/** A part of the day at the start ("früh", "abends", "in the morning") as its clock time. */
export function readDaypart(text: string): Read<string> | undefined {
  for (const [re, time] of DAYPARTS) {
    const m = re.exec(text);
    if (m) return { value: time, length: m[0].length };
  }
  return undefined;
}

/** A rule without its clock time (Omit over a union would keep only the shared keys). */
type RuleWithoutTime = Recurrence extends infer R ? (R extends unknown ? Omit<R, "at"> : never) : never;

/** The rule a recurring phrase at the start names, without its time; undefined when the text does not start with one. */
function readRule(text: string): Read<{ rule: RuleWithoutTime; needsTime: boolean }> | undefined {
  const t = text.toLowerCase();
  const simple: [RegExp, RuleWithoutTime][] = [
    [/^(jeden tag|täglich|jeden morgen|jeden abend|every day|daily|each day|every morning|every evening)\b/, { every: "day" }],
    [/^(werktags|jeden werktag|an werktagen|montags bis freitags|every weekday|on weekdays|weekdays)\b/, { every: "weekday" }],
    [/^(jede stunde|stündlich|every hour|hourly)\b/, { every: "hours", n: 1 }],
  ];
  for (const [re, rule] of simple) {
    const m = re.exec(t);
    if (m) return { value: { rule, needsTime: rule.every !== "hours" }, length: m[0].length };
  }
  const interval = /^(?:alle|every)\s+(\d+|[a-zäöü]+)\s+(stunden|hours|tage|days)\b/.exec(t);
  if (interval) {
    const n = Number(interval[1]) || NUMBER_WORDS[interval[1]!];
    if (!n) return undefined;
    const hours = /^(stunden|hours)$/.test(interval[2]!);
    return { value: { rule: hours ? { every: "hours", n } : { every: "days", n }, needsTime: !hours }, length: interval[0].length };
  }
  const weekly = new RegExp(`^(?:jeden|jede|immer|every|on)\\s+${DAY_NAME}s?((?:${LIST_JOIN}${DAY_NAME}s?)*)\\b`).exec(t);
  const plural = new RegExp(`^${DAY_NAME}s((?:${LIST_JOIN}${DAY_NAME}s)*)\\b`).exec(t);
  const week = weekly ?? plural;
  if (week) {
    const days = [...week[0].matchAll(new RegExp(DAY_NAME, "g"))].map((d) => WEEKDAYS[d[1]!]!);
    return { value: { rule: { every: "week", days: [...new Set(days)].sort() }, needsTime: true }, length: week[0].length };
  }
  const monthly =
    /^(?:jeden monat am|monatlich am|every month on the|monthly on the|on the)\s+(\d{1,2})(?:\.|st|nd|rd|th)?(?:\s+(?:jeden monats|of every month|of each month))?/.exec(
      t,
    ) ?? /^am\s+(\d{1,2})\.\s+(?:jeden|jedes)\s+monats/.exec(t);
  if (monthly && (monthly[0].startsWith("on the") ? /of (every|each) month/.test(monthly[0]) : true)) {
    const day = Number(monthly[1]);
    if (day < 1 || day > 31) return undefined;
    return { value: { rule: { every: "month", day }, needsTime: true }, length: monthly[0].length };
  }
  return undefined;
}

/** A recurring phrase at the start with its time, or what is missing: the rule read, its clock time (if named), and the length read. */
export function readRecurring(text: string): { rule: Recurrence | undefined; missingTime: boolean; length: number } | undefined {
  const read = readRule(text);
  if (!read) return undefined;
  let length = read.length;
  const rest = () => text.slice(length).replace(/^\s+/, "");
  const skip = () => text.length - length - rest().length;
  if (!read.value.needsTime) return { rule: read.value.rule as Recurrence, missingTime: false, length };
  length += skip();
  const time = readClockTime(rest()) ?? readDaypart(rest().toLowerCase());
  if (!time) return { rule: undefined, missingTime: true, length };
  length += time.length;
  return { rule: { ...read.value.rule, at: time.value } as Recurrence, missingTime: false, length };
}
