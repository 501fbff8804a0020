import * as chrono from "chrono-node";
import { isRealDate, localInstant, wallTimeOf } from "../../foundation/util/local-time.ts";
import { nextOccurrence, type Recurrence } from "./recurrence.ts";
import { readDaypart, readRecurring } from "./recurring-words.ts";

/** Why a time was not taken: in the past, no clock time named, not understood, a date no calendar has, or too far ahead. */
export type WhenRefusal = "past" | "no-time" | "unclear" | "impossible-date" | "too-far";

/** What the person's words name: the first due time and, for a recurring reminder, its rule; `text` is what is left of the words (the "what"). */
export type ParsedWhen = { ok: true; dueAt: Date; recurrence: Recurrence | undefined; text: string } | { ok: false; reason: WhenRefusal };

/** What reading a time needs: now, the person's time zone and language, and how far ahead a reminder may lie. */
export interface WhenContext {
  now: Date;
  timeZone: string;
  language: "de" | "en";
  /** A reminder further ahead than this is refused (default 5 years). */
  maxYears?: number;
}

const MONTHS: Record<string, number> = {
  januar: 1,
  jänner: 1,
  februar: 2,
  märz: 3,
  april: 4,
  mai: 5,
  juni: 6,
  juli: 7,
  august: 8,
  september: 9,
  oktober: 10,
  november: 11,
  dezember: 12,
  january: 1,
  february: 2,
  march: 3,
  may: 5,
  june: 6,
  july: 7,
  october: 10,
  december: 12,
};

/** Words that join the time and the text ("an", "dass", "to"), dropped from the text's edges. */
const JOINERS = /^(?:[-–:,]|an|dass|daran|to|that|about|me to|mich)\s+|\s+(?:[-–:,])$/i;
/** Words before the time that only introduce it ("am", "on", "erinnere mich"). */
const LEADS = /^(?:erinnere mich|erinner mich|remind me|bitte|please)\s+/i;

/** A date written out that no calendar has (31.2., 30. Februar, February 30), which chrono silently skips. */
function impossibleDate(text: string, year: number): boolean {
  const t = text.toLowerCase();
  for (const m of t.matchAll(/\b(\d{1,2})\.\s?(\d{1,2})\.(\d{4}|\d{2})?/g)) {
    if (!isRealDate(m[3] ? Number(m[3].length === 2 ? `20${m[3]}` : m[3]) : year, Number(m[2]), Number(m[1]))) return true;
  }
  const names = Object.keys(MONTHS).join("|");
  for (const m of t.matchAll(new RegExp(`\\b(\\d{1,2})\\.?\\s+(${names})\\b|\\b(${names})\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b`, "g"))) {
    const day = Number(m[1] ?? m[4]);
    const month = MONTHS[(m[2] ?? m[3])!]!;
    if (!isRealDate(year, month, day) && !(month === 2 && day === 29)) return true;
  }
  return false;
}

/** The zone's offset from UTC in minutes at an instant (chrono's reference wants one). */
function offsetMinutes(at: Date, timeZone: string): number {
  const w = wallTimeOf(at, timeZone);
  return Math.round((Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute) - Math.floor(at.getTime() / 60_000) * 60_000) / 60_000);
}

/** The text left when `from`…`to` is cut out, without joining words at its edges. */
function restOf(text: string, from: number, to: number): string {
  let rest = `${text.slice(0, from)} ${text.slice(to)}`.replace(/\s+/g, " ").trim();
  for (let i = 0; i < 3; i++) rest = rest.replace(JOINERS, "").trim();
  return rest;
}

/** A one-shot time read by chrono in the person's language (then the other), with Lilo's rules on top. */
function readOnce(text: string, c: WhenContext): ParsedWhen {
  const ref = { instant: c.now, timezone: offsetMinutes(c.now, c.timeZone) };
  const order = c.language === "de" ? [chrono.de, chrono.en] : [chrono.en, chrono.de];
  // The reading that starts first and, at the same place, takes more words wins; the person's language on a tie.
  const found = order
    .map((p) => p.parse(text, ref, { forwardDate: true })[0])
    .filter((r) => r !== undefined)
    .sort((a, b) => a.index - b.index || b.text.length - a.text.length)[0];
  if (impossibleDate(text, wallTimeOf(c.now, c.timeZone).year)) return { ok: false, reason: "impossible-date" };
  if (!found) return { ok: false, reason: "unclear" };
  const start = found.start;
  let end = found.index + found.text.length;
  let time: { hour: number; minute: number } | undefined = start.isCertain("hour") ? { hour: start.get("hour")!, minute: start.get("minute") ?? 0 } : undefined;
  // "übermorgen früh", "tomorrow evening": the part of the day stands for a clock time chrono does not set.
  const part = readDaypart(found.text.toLowerCase().split(/\s+/).slice(1).join(" ")) ?? readDaypart(text.slice(end).trimStart().toLowerCase());
  if (!time && part) {
    time = { hour: Number(part.value.slice(0, 2)), minute: Number(part.value.slice(3)) };
    if (!readDaypart(found.text.toLowerCase().split(/\s+/).slice(1).join(" ")))
      end += text.slice(end).length - text.slice(end).trimStart().length + part.length;
  }
  if (!time) {
    // "gestern" names a day without a time: a day before today is past, any other day needs its time asked.
    const day = `${start.get("year")}-${String(start.get("month")).padStart(2, "0")}-${String(start.get("day")).padStart(2, "0")}`;
    const today = wallTimeOf(c.now, c.timeZone);
    const past = day < `${today.year}-${String(today.month).padStart(2, "0")}-${String(today.day).padStart(2, "0")}`;
    return { ok: false, reason: past ? "past" : "no-time" };
  }
  // A relative time ("in 20 Minuten") is an exact instant; a named day and time is local wall time, resolved in the zone (DST-safe).
  const dueAt = start.isCertain("timezoneOffset")
    ? new Date(Math.floor(start.date().getTime() / 60_000) * 60_000)
    : localInstant({ year: start.get("year")!, month: start.get("month")!, day: start.get("day")!, ...time }, c.timeZone);
  // "am 30.3.": the preposition before the date belongs to the time, not to the text.
  const lead = /(?:^|\s)(?:am|on|um|at)\s+$/i.exec(text.slice(0, found.index));
  return { ok: true, dueAt, recurrence: undefined, text: restOf(text, lead ? lead.index : found.index, end) };
}

/** A recurring phrase at the start; its first due time is the rule's first occurrence after now. */
function readEvery(text: string, c: WhenContext): ParsedWhen | undefined {
  const read = readRecurring(text);
  if (!read) return undefined;
  if (!read.rule) return { ok: false, reason: read.missingTime ? "no-time" : "unclear" };
  return { ok: true, dueAt: nextOccurrence(read.rule, c.timeZone, c.now), recurrence: read.rule, text: restOf(text, 0, read.length) };
}

/**
 * Reads a reminder's time from the person's own words ("in 20 Minuten Tee",
 * "morgen um 9 Tabletten", "jeden Montag um 8 Müll", "every weekday at 7:30
 * run", "tomorrow 9:00 call mum"), in their time zone: the program resolves
 * the time, never the model. A time in the past, a date without a clock
 * time, a date no calendar has or one more than `maxYears` ahead is refused
 * with its reason, so the caller asks back instead of guessing.
 */
export function parseWhen(words: string, c: WhenContext): ParsedWhen {
  const text = words.trim().replace(LEADS, "");
  const read = readEvery(text.replace(/^(am|on)\s+(?=\S+s\b)/i, ""), c) ?? readOnce(text, c);
  if (!read.ok) return read;
  if (read.dueAt.getTime() <= c.now.getTime()) return { ok: false, reason: "past" };
  const limit = new Date(c.now);
  limit.setUTCFullYear(limit.getUTCFullYear() + (c.maxYears ?? 5));
  if (read.dueAt > limit) return { ok: false, reason: "too-far" };
  return read;
}
