import type { Clock } from "../../foundation/ports/clock.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import type { Db } from "../../foundation/store/db.ts";
import { describeError } from "../../foundation/errors.ts";
import { Outbox } from "../../foundation/store/push-outbox.ts";
import type { Reminder, RemindersStore } from "../../foundation/store/reminders.ts";
import { writeTransaction } from "../../foundation/store/tx.ts";
import { localDay } from "../../foundation/util/time.ts";
import { latestOccurrence, nextOccurrence, readRecurrence } from "../../conversation/reminders/recurrence.ts";
import { REMINDER_TEXTS } from "../../conversation/reminders/reminder-texts.ts";
import type { Reminders } from "../../conversation/reminders/reminders.ts";

/** What the scheduler works with: the database (one transaction moves a reminder and writes its push), the push delivery, the limits. */
export interface SchedulerDeps {
  db: Db;
  store: RemindersStore;
  reminders: Reminders;
  /** Delivers what waits in the outbox; `queued` says how much still waits. */
  push: { deliverPending(): Promise<void>; queued(): number };
  clock: Clock;
  logger: Logger;
  language: "de" | "en";
  /** Past this many hours late a one-shot reminder is listed as missed instead of sent (read at each pass). */
  lateHours: () => number;
}

/** Reminders moved in one transaction; more due at once are taken in further rounds of the same pass. */
const BATCH = 500;
/** Delivered this much after its time, a reminder says it is late. */
const LATE_NOTE_MS = 60_000;
/** setTimeout's longest delay; a reminder further ahead sets the timer again when it fires. */
const MAX_DELAY_MS = 2_147_483_647;

/**
 * Rings reminders on time, once. One timer sleeps until the soonest due
 * time (no polling); when it fires, one IMMEDIATE transaction moves each due
 * reminder on (a one-shot to delivered, a recurring one to its next
 * occurrence) and writes its push to the durable outbox, so a crash leaves
 * either a reminder still due or a push waiting, never both and never
 * neither. The outbox then delivers it exactly as it delivers every push.
 */
export class ReminderScheduler {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pass: Promise<void> | undefined;
  private again = false;
  private started = false;

  constructor(private readonly deps: SchedulerDeps) {}

  /** Starts ringing (in the process that has the chat connections): what came due while Lilo was down goes first. */
  start(): void {
    if (this.started) return;
    this.started = true;
    void this.runDue();
  }

  /** Stops the timer and waits for a pass under way. */
  async stop(): Promise<void> {
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.pass;
  }

  /** A due time changed (a reminder set, snoozed or deleted, here or by another process): the timer is set again. */
  nudge(): void {
    if (this.started && !this.pass) this.arm();
  }

  /** Rings every due reminder now and sets the timer for the next one; one pass at a time (a call during a pass runs another after it). */
  runDue(): Promise<void> {
    if (this.pass) {
      this.again = true;
      return this.pass;
    }
    const run = (async () => {
      do {
        this.again = false;
        try {
          while (this.enqueueDue() === BATCH);
          // The outbox delivers a bounded number a pass; 500 due in one minute need several.
          for (let i = 0; i < 1_000 && this.deps.push.queued() > 0; i++) await this.deps.push.deliverPending();
        } catch (err) {
          this.deps.logger.error("reminders not rung", { error: describeError(err) });
        }
      } while (this.again);
    })();
    this.pass = run.finally(() => {
      this.pass = undefined;
      if (this.started) this.arm();
    });
    return this.pass;
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const next = this.deps.store.nextDueAt();
    if (next === undefined) return;
    const delay = Math.min(MAX_DELAY_MS, Math.max(0, Date.parse(next) - this.deps.clock.now().getTime()));
    this.timer = setTimeout(() => void this.runDue(), delay);
    this.timer.unref?.();
  }

  /** Moves up to one batch of due reminders on and writes their pushes; returns how many it read. */
  private enqueueDue(): number {
    const now = this.deps.clock.now();
    const nowIso = now.toISOString();
    const outbox = new Outbox(this.deps.db);
    return writeTransaction(this.deps.db, () => {
      const due = this.deps.store.due(nowIso, BATCH);
      for (const r of due) this.ring(r, now, outbox);
      return due.length;
    });
  }

  /** One due reminder: its push written (or, far too late, listed as missed), the reminder moved on. */
  private ring(r: Reminder, now: Date, outbox: Outbox): void {
    const rule = readRecurrence(r.recurrence);
    const due = new Date(r.dueAt);
    // After a downtime a recurring reminder catches up once, with its latest occurrence: never a flood.
    const ringDue = rule ? latestOccurrence(rule, r.timeZone, due, now) : due;
    const lateMs = now.getTime() - ringDue.getTime();
    const missed = lateMs > this.deps.lateHours() * 3_600_000;
    const next = rule ? nextOccurrence(rule, r.timeZone, now, due) : undefined;
    const state = rule ? "pending" : missed ? "missed" : "delivered";
    const moved = this.deps.store.fired(r.id, r.dueAt, { state, dueAt: next?.toISOString() ?? r.dueAt, delivered: !missed }, now.toISOString());
    if (!moved) return;
    if (missed) {
      this.deps.logger.info("reminder missed: the bot was down past the late limit", { userId: r.userId, reminder: r.id, due: ringDue.toISOString() });
      return;
    }
    const texts = REMINDER_TEXTS[this.deps.language];
    const text = lateMs > LATE_NOTE_MS ? texts.ringLate(r.text, this.dueShown(ringDue, now, r.timeZone)) : texts.ring(r.text);
    outbox.add(
      r.userId,
      { kind: "reminder", text, reminderId: r.id },
      // The person chose the time: a reminder rings in quiet hours too.
      true,
      { proactive: { model: null }, reminder: r.id },
      now.toISOString(),
      { transport: r.transport, chatId: r.chatId },
    );
  }

  /** "09:00" for a time earlier today, "Fr 5.12., 09:00" for an earlier day. */
  private dueShown(due: Date, now: Date, timeZone: string): string {
    const full = this.deps.reminders.when(due, timeZone);
    return localDay(due, timeZone) === localDay(now, timeZone) ? full.slice(full.lastIndexOf(" ") + 1) : full;
  }
}
