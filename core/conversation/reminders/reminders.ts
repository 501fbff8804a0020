import type { Clock } from "../../foundation/ports/clock.ts";
import type { Reminder, ReminderSource, RemindersStore } from "../../foundation/store/reminders.ts";
import { dayPlus, localInstant, wallTimeOf } from "../../foundation/util/local-time.ts";
import { parseWhen } from "./parse-when.ts";
import { nextOccurrence, readRecurrence } from "./recurrence.ts";
import { REMINDER_TEXTS, type ReminderRefusal, type ShownTime } from "./reminder-texts.ts";

export type { Reminder } from "../../foundation/store/reminders.ts";

/** A reminder asked for: the person's words for the time (and the text, when it is not in them), and where it was asked. */
export interface ReminderRequest {
  userId: string;
  /** The person's own words: "/remind" passes the whole line ("in 1 Minute Tee aufsetzen"), the tool the time words. */
  words: string;
  /** The text, when the caller has it apart from the time words (the tool); otherwise what is left of `words`. */
  what?: string;
  transport: string;
  chatId: string;
  /** A group chat: reminders are for private chats only. */
  group?: boolean;
  source: ReminderSource;
  sourceMessageId?: number;
}

/** The outcome of setting or changing a reminder: the sentence to show, and the reminder when it worked. */
export type ReminderOutcome = { ok: true; text: string; reminder: Reminder } | { ok: false; reason: ReminderRefusal; text: string };

/** How a snooze button moves a reminder. */
export type Snooze = "10m" | "1h" | "tomorrow";

/** What the reminders need: the store, the clock, the person's zone and language, the limits (read live), and who to tell of a change. */
export interface RemindersDeps {
  store: RemindersStore;
  clock: Clock;
  timeZone: string;
  language: "de" | "en";
  limits: () => { maxPending: number; maxChars: number };
  /** Called after every change of a due time, so the scheduler's one timer is set again. */
  changed: () => void;
}

const WAITING_OR_RUNG = ["pending", "snoozed", "delivered", "missed"] as const;

/**
 * Reminders the person asks for, by command, tool, marker, the CLI or the
 * pages: the program reads the time from their words, refuses what it cannot
 * keep (with a sentence, storing nothing), and confirms with the resolved
 * local day and time.
 */
export class Reminders {
  private readonly texts;

  constructor(private readonly deps: RemindersDeps) {
    this.texts = REMINDER_TEXTS[deps.language];
  }

  /** Sets a reminder from the person's words, or says why not. */
  set(req: ReminderRequest): ReminderOutcome {
    if (req.group) return this.refuse("group");
    const now = this.deps.clock.now();
    const parsed = parseWhen(req.words, { now, timeZone: this.deps.timeZone, language: this.deps.language });
    if (!parsed.ok) return this.refuse(parsed.reason);
    const text = (req.what ?? parsed.text).trim();
    const limits = this.deps.limits();
    if (!text) return this.refuse("empty");
    if (text.length > limits.maxChars) return this.refuse("too-long");
    if (this.deps.store.countWaiting(req.userId) >= limits.maxPending) return this.refuse("too-many");
    const id = this.deps.store.add(
      {
        userId: req.userId,
        text,
        timeZone: this.deps.timeZone,
        recurrence: parsed.recurrence ? JSON.stringify(parsed.recurrence) : null,
        dueAt: parsed.dueAt.toISOString(),
        transport: req.transport,
        chatId: req.chatId,
        source: req.source,
        sourceMessageId: req.sourceMessageId ?? null,
      },
      now.toISOString(),
    );
    this.deps.changed();
    const reminder = this.deps.store.get(id)!;
    return { ok: true, reminder, text: this.confirmation(reminder) };
  }

  /** "Ich erinnere dich morgen, Sa 6.12., um 09:00 an: Tabletten", or the rule and its first time for a recurring one. */
  confirmation(r: Reminder): string {
    const rule = readRecurrence(r.recurrence);
    if (rule) return this.texts.confirmRecurring(this.texts.rule(rule), this.when(new Date(r.dueAt), r.timeZone), r.text);
    const shown = this.shown(new Date(r.dueAt), r.timeZone);
    const relative = this.texts.relativeDays[shown.daysAhead];
    return this.texts.confirmOnce(`${relative ? `${relative}, ` : ""}${this.texts.date(shown)},`, shown.clock, r.text);
  }

  /** A reminder as one line of a list: its next time, its rule, its text. */
  line(r: Reminder): string {
    const rule = readRecurrence(r.recurrence);
    return `${this.when(new Date(r.dueAt), r.timeZone)}${rule ? ` (${this.texts.rule(rule)})` : ""} – ${r.text}`;
  }

  /** A local time as the texts show it: "Sa 6.12., 09:00". */
  when(at: Date, timeZone = this.deps.timeZone): string {
    const s = this.shown(at, timeZone);
    return `${this.texts.date(s)}, ${s.clock}`;
  }

  /** One person's reminders that still wait, soonest first. */
  list(userId: string): Reminder[] {
    return this.deps.store.list(userId);
  }

  /** One person's reminders that were not sent because the bot was down too long. */
  missed(userId: string): Reminder[] {
    return this.deps.store.list(userId, ["missed"]);
  }

  get(id: number): Reminder | undefined {
    return this.deps.store.get(id);
  }

  /** Done: a one-shot is closed; a recurring one keeps its next occurrence (done is for this one). */
  done(userId: string, id: number): ReminderOutcome {
    const r = this.own(userId, id);
    if (!r) return this.refuse("not-found");
    const now = this.deps.clock.now().toISOString();
    if (readRecurrence(r.recurrence)) return { ok: true, reminder: r, text: this.texts.doneRecurring(this.when(new Date(r.dueAt), r.timeZone)) };
    if (!this.deps.store.setState(id, userId, WAITING_OR_RUNG, "done", now)) return this.refuse("not-found");
    this.deps.changed();
    return { ok: true, reminder: this.deps.store.get(id)!, text: this.texts.done };
  }

  /**
   * Snooze: a one-shot moves to the new time; for a recurring one a one-shot
   * copy rings then and the series keeps its own times. "tomorrow" is the
   * same local clock time tomorrow.
   */
  snooze(userId: string, id: number, by: Snooze): ReminderOutcome {
    const r = this.own(userId, id);
    if (!r || r.state === "done" || r.state === "cancelled") return this.refuse("not-found");
    const now = this.deps.clock.now();
    const at = this.snoozeTime(now, r.timeZone, by);
    if (readRecurrence(r.recurrence)) {
      const copyId = this.deps.store.add({ ...r, recurrence: null, dueAt: at.toISOString(), sourceMessageId: r.sourceMessageId }, now.toISOString());
      this.deps.store.setState(copyId, userId, ["pending"], "snoozed", now.toISOString());
    } else if (!this.deps.store.moveTo(id, userId, at.toISOString(), "snoozed", now.toISOString())) {
      return this.refuse("not-found");
    }
    this.deps.changed();
    return { ok: true, reminder: this.deps.store.get(id)!, text: this.texts.snoozed(this.when(at, r.timeZone)) };
  }

  /** Deletes a reminder (a recurring one with all its occurrences). */
  cancel(userId: string, id: number): ReminderOutcome {
    const r = this.own(userId, id);
    if (!r || !this.deps.store.setState(id, userId, WAITING_OR_RUNG, "cancelled", this.deps.clock.now().toISOString())) return this.refuse("not-found");
    this.deps.changed();
    return { ok: true, reminder: this.deps.store.get(id)!, text: this.texts.cancelled };
  }

  /** The sentence for a refusal, in the persona's language. */
  refusal(reason: ReminderRefusal): string {
    return this.texts.refused[reason];
  }

  private refuse(reason: ReminderRefusal): ReminderOutcome {
    return { ok: false, reason, text: this.refusal(reason) };
  }

  /** The reminder if it is this person's: someone else's id is the same as none. */
  private own(userId: string, id: number): Reminder | undefined {
    const r = this.deps.store.get(id);
    return r && r.userId === userId ? r : undefined;
  }

  private snoozeTime(now: Date, timeZone: string, by: Snooze): Date {
    if (by === "10m") return new Date(now.getTime() + 10 * 60_000);
    if (by === "1h") return new Date(now.getTime() + 3_600_000);
    const w = wallTimeOf(now, timeZone);
    return localInstant({ ...dayPlus(w, 1), hour: w.hour, minute: w.minute }, timeZone);
  }

  private shown(at: Date, timeZone: string): ShownTime {
    const w = wallTimeOf(at, timeZone);
    const today = wallTimeOf(this.deps.clock.now(), timeZone);
    const daysAhead = Math.round((Date.UTC(w.year, w.month - 1, w.day) - Date.UTC(today.year, today.month - 1, today.day)) / 86_400_000);
    const weekday = new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay();
    const clock = `${String(w.hour).padStart(2, "0")}:${String(w.minute).padStart(2, "0")}`;
    return { weekday, day: w.day, month: w.month, year: w.year, clock, daysAhead };
  }
}

/** The next due time of a recurring reminder after `after`, counted from its current due time. */
export function nextDue(r: Reminder, after: Date): Date | undefined {
  const rule = readRecurrence(r.recurrence);
  return rule ? nextOccurrence(rule, r.timeZone, after, new Date(r.dueAt)) : undefined;
}
