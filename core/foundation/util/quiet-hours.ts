import { ConfigError } from "../errors.ts";
import { dateFormat } from "./date-format.ts";

/** A daily window in local time, e.g. 22:30–07:00 (may wrap past midnight). */
export interface QuietHours {
  startMinute: number;
  endMinute: number;
}

/** Parses "HH:MM-HH:MM"; "" means none. */
export function parseQuietHours(variable: string, raw: string): QuietHours | undefined {
  if (!raw.trim()) return undefined;
  const m = /^(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})$/.exec(raw.trim());
  const mins = m ? [Number(m[1]) * 60 + Number(m[2]), Number(m[3]) * 60 + Number(m[4])] : [];
  if (!m || mins.some((x) => x >= 24 * 60) || Number(m[2]) > 59 || Number(m[4]) > 59) {
    throw new ConfigError(`${variable}: "${raw}" is not a time window like 22:30-07:00`);
  }
  return { startMinute: mins[0]!, endMinute: mins[1]! };
}

/** Is `now` inside the window, in the given time zone? */
export function inQuietHours(now: Date, q: QuietHours, timeZone: string): boolean {
  const parts = dateFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(now);
  const h = Number(parts.find((p) => p.type === "hour")?.value);
  const min = Number(parts.find((p) => p.type === "minute")?.value);
  const t = h * 60 + min;
  return q.startMinute <= q.endMinute ? t >= q.startMinute && t < q.endMinute : t >= q.startMinute || t < q.endMinute;
}
