/**
 * Reminders: the service that reads the person's words and keeps the rows,
 * and the scheduler that rings them through the push outbox. The scheduler's
 * one timer is set again after every change, and after each outbox pass, so
 * a reminder the CLI adds in another process is noticed too.
 */
import { Reminders } from "../../conversation/reminders/reminders.ts";
import { REMINDER_TEXTS } from "../../conversation/reminders/reminder-texts.ts";
import { explainReminder } from "../../conversation/reminders/reminder-why.ts";
import { ReminderScheduler } from "../../background/reminders/scheduler.ts";
import type { Push } from "../../background/push/push.ts";
import type { RemindersApi } from "../reminders-api.ts";
import type { Base } from "./foundation.ts";
import type { Stores } from "./stores.ts";

/** The reminders' use cases and the scheduler, to stop on close. */
export interface Reminding {
  api: RemindersApi;
  scheduler: ReminderScheduler;
}

/** Builds the reminders over their store and the push outbox. */
export function wireReminders(base: Base, stores: Pick<Stores, "reminders" | "chatLog">, push: Push): Reminding {
  const { config, db, clock, logger } = base;
  const language = config.persona.language;
  let scheduler: ReminderScheduler | undefined;
  const reminders = new Reminders({
    store: stores.reminders,
    clock,
    timeZone: config.timezone,
    language,
    limits: () => ({ maxPending: config.push.reminderMaxPending, maxChars: config.push.reminderMaxChars }),
    changed: () => scheduler?.nudge(),
  });
  scheduler = new ReminderScheduler({
    db,
    store: stores.reminders,
    reminders,
    push,
    clock,
    logger,
    language,
    lateHours: () => config.push.reminderLateHours,
  });
  const running = scheduler;
  push.setAfterPass(() => running.nudge());
  const api: RemindersApi = {
    set: (r) => reminders.set(r),
    list: (u) => reminders.list(u),
    missed: (u) => reminders.missed(u),
    get: (id) => reminders.get(id),
    done: (u, id) => reminders.done(u, id),
    snooze: (u, id, by) => reminders.snooze(u, id, by),
    cancel: (u, id) => reminders.cancel(u, id),
    line: (r) => reminders.line(r),
    confirmation: (r) => reminders.confirmation(r),
    refusal: (reason) => reminders.refusal(reason),
    why: (u, id) => explainReminder({ store: stores.reminders, chatLog: stores.chatLog, language, when: (at, zone) => reminders.when(at, zone) }, u, id),
    buttons: () => REMINDER_TEXTS[language].buttons,
    startScheduler: () => running.start(),
    runDue: () => running.runDue(),
  };
  return { api, scheduler: running };
}
