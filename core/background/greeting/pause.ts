/**
 * Time in words for greetings (docs/spec.md §9): the program reckons the pause and
 * the days, never the model ("models reckon badly with dates"). Pure
 * functions of instants, a time zone and the answer language.
 */
import { addDays, localDay, localParts } from "../../foundation/util/time.ts";
import { dateFormat } from "../../foundation/util/date-format.ts";

type Lang = "de" | "en";

export const PAUSE_DAY_PARTS: Record<Lang, [from: number, name: string][]> = {
  de: [
    [0, "Nacht"],
    [5, "Morgen"],
    [11, "Mittag"],
    [14, "Nachmittag"],
    [18, "Abend"],
    [23, "Nacht"],
  ],
  en: [
    [0, "night"],
    [5, "morning"],
    [11, "midday"],
    [14, "afternoon"],
    [18, "evening"],
    [23, "night"],
  ],
};

/** The part of the day a local hour belongs to: "Abend" / "evening". */
export function dayPart(hour: number, language: Lang): string {
  let name = PAUSE_DAY_PARTS[language][0]![1];
  for (const [from, n] of PAUSE_DAY_PARTS[language]) if (hour >= from) name = n;
  return name;
}

/** Calendar days from local day `from` to local day `to` (YYYY-MM-DD), negative when `to` is earlier. */
export function dayDiff(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** A local day as weekday and short date: "Sonntag, 29.11." / "Sunday, 29 Nov"; `year` adds the year. */
function dayName(day: string, language: Lang, year = false): string {
  const noon = new Date(`${day}T12:00:00Z`);
  return dateFormat(language === "de" ? "de-DE" : "en-GB", {
    timeZone: "UTC",
    weekday: "long",
    day: "numeric",
    month: language === "de" ? "numeric" : "short",
    ...(year ? { year: "numeric" } : {}),
  }).format(noon);
}

/** Today's local date with weekday, spelled out: "Mittwoch, 2. Dezember 2026". */
export function longDate(now: Date, timeZone: string, language: Lang): string {
  return dateFormat(language === "de" ? "de-DE" : "en-GB", { timeZone, weekday: "long", day: "numeric", month: "long", year: "numeric" }).format(now);
}

/**
 * A local day relative to today: "heute", "gestern", "vorgestern", "morgen"
 * with the weekday and date in brackets, further away only weekday and date.
 */
export function relativeDay(day: string, today: string, language: Lang): string {
  const diff = dayDiff(day, today);
  const words =
    language === "de"
      ? { 0: "heute", 1: "gestern", 2: "vorgestern", [-1]: "morgen" }
      : { 0: "today", 1: "yesterday", 2: "the day before yesterday", [-1]: "tomorrow" };
  const word = (words as Record<number, string>)[diff];
  const name = dayName(day, language, Math.abs(diff) > 6);
  return word ? `${word} (${name})` : name;
}

/** "21:30": the local time of an instant. */
export function clockTime(d: Date, timeZone: string): string {
  const p = localParts(d, timeZone);
  return `${String(p.hour).padStart(2, "0")}:${String(p.minute).padStart(2, "0")}`;
}

/**
 * How long the user was away, in words: "3 Stunden (seit heute Morgen)",
 * "seit gestern Abend (14 Stunden)", "3 Tage (seit Sonntagabend)",
 * "2 Wochen (seit Donnerstag, 12.11.)". Days are calendar days in the local
 * time zone, so "gestern Abend" is right even when fewer than 24 hours passed.
 */
export function pauseWords(last: Date, now: Date, timeZone: string, language: Lang): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - last.getTime()) / 60_000));
  const hours = Math.floor(minutes / 60);
  const days = dayDiff(localDay(last, timeZone), localDay(now, timeZone));
  const part = dayPart(localParts(last, timeZone).hour, language);
  const lastDay = localDay(last, timeZone);
  const de = language === "de";
  if (hours < 1) return de ? `${minutes} ${minutes === 1 ? "Minute" : "Minuten"}` : `${minutes} ${minutes === 1 ? "minute" : "minutes"}`;
  const h = de ? `${hours} ${hours === 1 ? "Stunde" : "Stunden"}` : `${hours} ${hours === 1 ? "hour" : "hours"}`;
  if (days <= 0) return de ? `${h} (seit heute ${part})` : `${h} (since ${part === "night" ? "last night" : `this ${part}`})`;
  if (days === 1) return de ? `seit gestern ${part} (${h})` : `since yesterday ${part} (${h})`;
  if (days === 2) return de ? `seit vorgestern ${part} (2 Tage)` : `since the day before yesterday in the ${part} (2 days)`;
  const weekday = dateFormat(de ? "de-DE" : "en-GB", { timeZone: "UTC", weekday: "long" }).format(new Date(`${lastDay}T12:00:00Z`));
  if (days < 14) return de ? `${days} Tage (seit ${weekday}${part.toLowerCase()})` : `${days} days (since ${weekday} ${part})`;
  const since = dayName(lastDay, language, days > 300);
  if (days < 60) {
    const weeks = Math.floor(days / 7);
    return de ? `${weeks} Wochen (seit ${since})` : `${weeks} weeks (since ${since})`;
  }
  const months = Math.round(days / 30);
  return de ? `etwa ${months} Monate (seit ${since})` : `about ${months} months (since ${since})`;
}

/** The local day after `day`: what "morgen" meant in a message written that day. */
export function nextDay(day: string): string {
  return addDays(day, 1);
}
