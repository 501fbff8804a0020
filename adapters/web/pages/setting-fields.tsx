/** @jsxImportSource hono/jsx */
import type { SettingRow } from "../../../core/internal.ts";
import { cronOf, scheduleOf } from "../schedule.ts";
import type { Texts } from "../texts.ts";
import type { Viewer } from "../viewer.ts";

/** How a live setting is edited: on/off, a time of day, a schedule (time and weekdays), quiet hours (from–to), or text. */
type FieldKind = "switch" | "time" | "schedule" | "quiet" | "text";

/** The settings whose values are a time or a schedule; the rest follow from their value (on/off) or are text. */
const KIND_OF: Record<string, FieldKind> = {
  "diary.time": "time",
  "reflection.cron": "schedule",
  "greeting.cron": "schedule",
  "push.quiet_hours": "quiet",
};

const kindOf = (row: SettingRow): FieldKind => KIND_OF[row.key] ?? (/^(true|false)$/.test(row.value) ? "switch" : "text");

/** Monday first, as a week is read in both languages; the numbers are cron's (0 = Sunday). */
const WEEK = [1, 2, 3, 4, 5, 6, 0];

/** A setting's name in the viewer's language; the key stays visible as the name `lilo settings set` knows. */
export const labelOf = (t: Texts, key: string): string => t.settingLabels[key] ?? key;

/** A setting's value in words, for a viewer who may not change it. */
export function shownValue(t: Texts, row: SettingRow): string {
  const kind = kindOf(row);
  if (kind === "switch") return row.value === "true" ? t.on : t.off;
  const schedule = kind === "schedule" ? scheduleOf(row.value) : undefined;
  if (schedule)
    return `${
      schedule.days.length === 7
        ? t.everyDay
        : WEEK.filter((d) => schedule.days.includes(d))
            .map((d) => t.weekdays[d])
            .join(", ")
    } ${t.at} ${schedule.time}`;
  return row.value;
}

/** The form fields of one live setting; their names start with the setting's key (a browser sends each checkbox apart). */
export function SettingField({ v, row }: { v: Viewer; row: SettingRow }) {
  const { t } = v;
  const label = labelOf(t, row.key);
  const kind = kindOf(row);
  if (kind === "switch")
    return (
      <select name={row.key} aria-label={label}>
        <option value="true" selected={row.value === "true"}>
          {t.on}
        </option>
        <option value="false" selected={row.value === "false"}>
          {t.off}
        </option>
      </select>
    );
  if (kind === "time") return <input type="time" name={row.key} value={row.value} aria-label={label} required />;
  if (kind === "quiet") {
    const [from = "", to = ""] = /^\d{2}:\d{2}-\d{2}:\d{2}$/.test(row.value) ? row.value.split("-") : [];
    return (
      <span class="times">
        <label>
          {t.from} <input type="time" name={`${row.key}#from`} value={from} />
        </label>
        <label>
          {t.to} <input type="time" name={`${row.key}#to`} value={to} />
        </label>
      </span>
    );
  }
  if (kind === "schedule") return <ScheduleField t={t} row={row} label={label} />;
  return <input name={row.key} value={row.value} aria-label={label} />;
}

/** A time and the weekdays; a cron pattern of another shape is shown above them and kept until a time is chosen. */
function ScheduleField({ t, row, label }: { t: Texts; row: SettingRow; label: string }) {
  const schedule = scheduleOf(row.value);
  return (
    <span class="schedule">
      {!schedule && (
        <span class="custom">
          {t.customSchedule} <code>{row.value}</code>
        </span>
      )}
      <label>
        {t.at} <input type="time" name={`${row.key}#time`} value={schedule?.time ?? ""} aria-label={`${label}: ${t.at}`} />
      </label>
      <span class="days" role="group" aria-label={label}>
        {WEEK.map((d) => (
          <label class="day">
            <input type="checkbox" name={`${row.key}#day${d}`} value="1" checked={schedule ? schedule.days.includes(d) : true} />
            {t.weekdays[d]}
          </label>
        ))}
      </span>
    </span>
  );
}

/** A form's fields, as parsed (each name once). */
type Body = Record<string, unknown>;
const text = (body: Body, name: string): string | undefined => (typeof body[name] === "string" ? body[name].trim() : undefined);

/**
 * The value a form asks for one setting: undefined when the setting is not on this form or the form keeps it
 * (a custom schedule without a chosen time, an emptied text); `{ problem }` for an incomplete choice.
 */
export function askedValue(t: Texts, row: SettingRow, body: Body): { value: string } | { unset: true } | { problem: string } | undefined {
  const kind = kindOf(row);
  const label = labelOf(t, row.key);
  if (kind === "schedule") {
    const time = text(body, `${row.key}#time`);
    if (time === undefined) return undefined;
    const days = WEEK.filter((d) => text(body, `${row.key}#day${d}`) === "1");
    if (!time) return scheduleOf(row.value) ? { problem: t.needTime(label) } : undefined;
    if (!/^\d{2}:\d{2}$/.test(time)) return { problem: t.needTime(label) };
    if (days.length === 0) return { problem: t.needDay(label) };
    return { value: cronOf({ time, days }) };
  }
  if (kind === "quiet") {
    const from = text(body, `${row.key}#from`);
    const to = text(body, `${row.key}#to`);
    if (from === undefined || to === undefined) return undefined;
    if (!from && !to) return { value: "none" };
    if (!from || !to) return { problem: t.needBoth(label) };
    return { value: `${from}-${to}` };
  }
  const value = text(body, row.key);
  if (value === undefined) return undefined;
  // An emptied field goes back to `.env` when it was changed here; otherwise there is nothing to go back to.
  if (value === "") return row.source === "set" ? { unset: true } : undefined;
  return { value };
}
