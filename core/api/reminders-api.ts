import type { Reminder, ReminderOutcome, ReminderRequest, Snooze } from "../conversation/reminders/reminders.ts";
import type { ReminderRefusal } from "../conversation/reminders/reminder-texts.ts";

export type { Reminder, ReminderOutcome, ReminderRequest, Snooze } from "../conversation/reminders/reminders.ts";
export type { ReminderRefusal } from "../conversation/reminders/reminder-texts.ts";

/** Reminders the person asked for: set from their words, listed, done, snoozed, deleted, and rung on time by the scheduler (docs/reminders.md). */
export interface RemindersApi {
  /** Sets a reminder from the person's words ("/remind" passes the whole line), or says why not; nothing is stored when refused. */
  set(request: ReminderRequest): ReminderOutcome;
  /** One person's reminders that still wait, soonest first. */
  list(userId: string): Reminder[];
  /** One person's reminders not sent because Lilo was down past the late limit. */
  missed(userId: string): Reminder[];
  get(id: number): Reminder | undefined;
  /** Done (the person's own reminder only: someone else's id is "not found"). */
  done(userId: string, id: number): ReminderOutcome;
  snooze(userId: string, id: number, by: Snooze): ReminderOutcome;
  /** Deletes a reminder, a recurring one with all its occurrences. */
  cancel(userId: string, id: number): ReminderOutcome;
  /** A reminder as one line of a list: next local time, rule, text. */
  line(reminder: Reminder): string;
  /** The confirmation sentence with the resolved local day and time. */
  confirmation(reminder: Reminder): string;
  /** The sentence for a refusal, in the persona's language. */
  refusal(reason: ReminderRefusal): string;
  /**
   * /why on a reminder: the sentence naming where it came from (the
   * person's message that set it, or /remind, the CLI, the pages). With an
   * id, that reminder; without, her newest message if it was a rung reminder.
   * Undefined when there is none of this person's.
   */
  why(userId: string, reminderId?: number): string | undefined;
  /** The words of the buttons under a reminder. */
  buttons(): { done: string; snooze10: string; snooze60: string; tomorrow: string; delete: string };
  /** Starts ringing reminders (the process with the chat connections, after the adapters registered their transports). */
  startScheduler(): void;
  /** Rings every due reminder now (what the timer does); for tests and the benchmark. */
  runDue(): Promise<void>;
}
