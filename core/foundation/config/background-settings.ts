import { z } from "zod";
import type { QuietHours } from "../util/quiet-hours.ts";
import { bool, cronPattern, int, num, positive, positiveInt, quietHours, setting as s } from "./rules.ts";

/* The quiet-hours work: diary, reflection, greetings and pushes (reminders included). */

const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;

/** diary: a section of the table in schema.ts. */
export const diarySettings = z.object({
  enabled: s(bool(true), { env: "LILO_DIARY_ENABLED", doc: "false: no nightly diary", group: "diary", live: "diary.enabled" }),
  time: s(
    z
      .string()
      .trim()
      .regex(/^([01]?\d|2[0-3]):[0-5]\d$/, "use HH:MM, e.g. 23:45")
      .default("23:45"),
    {
      env: "LILO_DIARY_TIME",
      doc: "HH:MM, local time",
      group: "diary",
      live: "diary.time",
    },
  ),
  ping: s(bool(true), {
    env: "LILO_DIARY_PING",
    doc: "a short push after each entry, only to users who opted in to pushes",
    group: "diary",
    live: "diary.ping",
  }),
  windowHours: s(num(24), { env: "LILO_DIARY_WINDOW_HOURS", doc: "no conversation in this window → no entry", group: "diary" }),
  maxExchanges: s(int(40), { env: "LILO_DIARY_MAX_EXCHANGES", doc: "the newest exchanges of the window the diary reads", group: "diary" }),
  userChars: s(int(400), { env: "LILO_DIARY_USER_CHARS", doc: "the user's messages are cut to this on the diary sheet", group: "diary" }),
  liloChars: s(int(600), { env: "LILO_DIARY_LILO_CHARS", doc: "Lilo's answers are cut to this", group: "diary" }),
  thoughts: s(int(3), { env: "LILO_DIARY_THOUGHTS", doc: "thoughts of the window, newest first", group: "diary" }),
  lastEntries: s(int(3), { env: "LILO_DIARY_LAST_ENTRIES", doc: "earlier entries for continuity; also how many a diary question shows", group: "diary" }),
});

/** reflection: a section of the table in schema.ts. */
export const reflectionSettings = z.object({
  enabled: s(bool(true), {
    env: "LILO_REFLECTION_ENABLED",
    doc: "false: no reflection, no new 🧠 concerns",
    group: "reflection",
    live: "reflection.enabled",
  }),
  cron: s(cronPattern("0 22 * * *", "a cron pattern of 5 or 6 fields, e.g. 0 22 * * * (daily 22:00) or 0 * * * * (hourly)"), {
    env: "LILO_REFLECTION_CRON",
    doc: "daily 22:00 local time; hourly: 0 * * * *",
    group: "reflection",
    live: "reflection.cron",
  }),
  exchanges: s(int(12), { env: "LILO_REFLECTION_EXCHANGES", doc: "the newest exchanges the reflection reads", group: "reflection" }),
  userChars: s(int(200), { env: "LILO_REFLECTION_USER_CHARS", doc: "the user's messages are cut to this on the reflection sheet", group: "reflection" }),
  liloChars: s(int(300), { env: "LILO_REFLECTION_LILO_CHARS", doc: "Lilo's answers are cut to this", group: "reflection" }),
  notes: s(int(4), { env: "LILO_REFLECTION_NOTES", doc: "found with the user's last 5 messages", group: "reflection" }),
  relatedThoughts: s(int(3), { env: "LILO_REFLECTION_RELATED_THOUGHTS", doc: "earlier thoughts found with the user's last 5 messages", group: "reflection" }),
  lastThoughts: s(int(3), { env: "LILO_REFLECTION_LAST_THOUGHTS", doc: "Lilo's newest thoughts, shown as they are", group: "reflection" }),
  concernMinHours: s(num(20), { env: "LILO_CONCERN_MIN_HOURS", doc: "at most one new 🧠 concern per this many hours; more are queued", group: "reflection" }),
  concernDuplicateShare: s(z.coerce.number().min(0).max(1).default(0.6), {
    env: "LILO_CONCERN_DUPLICATE_SHARE",
    doc: "share of meaningful words shared with an open topic → not created",
    group: "reflection",
  }),
  concernPing: s(bool(true), {
    env: "LILO_CONCERN_PING",
    doc: "push a new concern to users who opted in to pushes",
    group: "reflection",
    live: "reflection.concern_ping",
  }),
});
// greetings (docs/spec.md §9): the pushed greeting is off by default (see README, "Follow-up topics and greetings")

/** greeting: a section of the table in schema.ts. */
export const greetingSettings = z.object({
  enabled: s(bool(false), {
    env: "LILO_GREETING_ENABLED",
    doc: "true: a greeting is pushed on the schedule below",
    group: "greeting",
    live: "greeting.enabled",
  }),
  cron: s(cronPattern("0 9 * * *"), { env: "LILO_GREETING_CRON", doc: "daily 09:00 local time", group: "greeting", live: "greeting.cron" }),
  minHours: s(positive(20), {
    env: "LILO_GREETING_MIN_HOURS",
    doc: "only users silent this long; never twice into silence",
    group: "greeting",
    listed: "greeting.min_hours",
  }),
  messages: s(positiveInt(6), { env: "LILO_GREETING_MESSAGES", doc: "last messages the greeting is written from", group: "greeting" }),
});

/** push: a section of the table in schema.ts. */
export const pushSettings = z.object({
  quietHours: s(quietHours("LILO_QUIET_HOURS"), {
    env: "LILO_QUIET_HOURS",
    doc: "e.g. 22:30-07:00: no pushes then, local time",
    group: "memory",
    live: "push.quiet_hours",
    show: (c: { push: { quietHours: QuietHours | undefined } }) => {
      const q = c.push.quietHours;
      return q ? `${hhmm(q.startMinute)}-${hhmm(q.endMinute)}` : "none";
    },
  }),
  outboxPollMs: s(positiveInt(1500), {
    env: "LILO_PUSH_OUTBOX_POLL_MS",
    doc: "the running bot delivers pushes the CLI queued, checking this often",
    group: "memory",
  }),
  maxAgeHours: s(positive(24), {
    env: "LILO_PUSH_MAX_AGE_HOURS",
    doc: "a queued push older than this is dropped (logged as expired), not sent late",
    group: "memory",
  }),
  reminderMaxPending: s(positiveInt(50), { env: "LILO_REMINDER_MAX_PENDING", doc: "reminders one person may have waiting at once", group: "memory" }),
  reminderMaxChars: s(positiveInt(1_000), {
    env: "LILO_REMINDER_MAX_CHARS",
    doc: "the longest reminder text (a reminder is one chat message)",
    group: "memory",
  }),
  reminderLateHours: s(positive(12), {
    env: "LILO_REMINDER_LATE_HOURS",
    doc: "a reminder the bot was down for is sent late, with a note, up to this many hours; later it is listed as missed",
    group: "memory",
  }),
});
