import type { Db } from "./db.ts";

/** A reminder's state: waiting (pending, snoozed), rung once (delivered), closed (done, cancelled), or not sent because the bot was down too long (missed). */
export const REMINDER_STATES = ["pending", "snoozed", "delivered", "done", "cancelled", "missed"] as const;
export type ReminderState = (typeof REMINDER_STATES)[number];

/** The states of a reminder that still waits for its time. */
export const WAITING_STATES: readonly ReminderState[] = ["pending", "snoozed"];

/** How a reminder was asked for. */
export const REMINDER_SOURCES = ["command", "tool", "marker", "cli", "web", "import"] as const;
export type ReminderSource = (typeof REMINDER_SOURCES)[number];

/** One reminder as the store keeps it. `recurrence` is the rule's JSON (core/conversation/reminders/recurrence.ts), null for a one-shot. */
export interface Reminder {
  id: number;
  userId: string;
  text: string;
  timeZone: string;
  recurrence: string | null;
  /** The next time it rings (ISO, UTC). */
  dueAt: string;
  state: ReminderState;
  /** The chat it was set in, where it rings. */
  transport: string;
  chatId: string;
  source: ReminderSource;
  /** The chat-log message that asked for it, when there is one. */
  sourceMessageId: number | null;
  deliveredCount: number;
  /** The due time of the last occurrence that rang (or was missed). */
  lastDueAt: string | null;
  /** The chat-log message of the last delivery (her message). */
  lastMessageId: number | null;
  createdAt: string;
  updatedAt: string;
}

/** What a new reminder needs; the rest starts empty. */
export type NewReminder = Pick<Reminder, "userId" | "text" | "timeZone" | "recurrence" | "dueAt" | "transport" | "chatId" | "source" | "sourceMessageId">;

interface RawReminder {
  id: number;
  user_id: string;
  text: string;
  time_zone: string;
  recurrence: string | null;
  due_at: string;
  state: ReminderState;
  transport: string;
  chat_id: string;
  source: ReminderSource;
  source_message_id: number | null;
  delivered_count: number;
  last_due_at: string | null;
  last_message_id: number | null;
  created_at: string;
  updated_at: string;
}

const toReminder = (r: RawReminder): Reminder => ({
  id: r.id,
  userId: r.user_id,
  text: r.text,
  timeZone: r.time_zone,
  recurrence: r.recurrence,
  dueAt: r.due_at,
  state: r.state,
  transport: r.transport,
  chatId: r.chat_id,
  source: r.source,
  sourceMessageId: r.source_message_id,
  deliveredCount: r.delivered_count,
  lastDueAt: r.last_due_at,
  lastMessageId: r.last_message_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const WAITING_SQL = `state IN ('pending', 'snoozed')`;

/** The reminders table: every reminder of every person, one row each, with its next due time and state. */
export class RemindersStore {
  constructor(private readonly db: Db) {}

  add(r: NewReminder, now: string): number {
    const info = this.db
      .prepare(
        `INSERT INTO reminders (user_id, text, time_zone, recurrence, due_at, transport, chat_id, source, source_message_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(r.userId, r.text, r.timeZone, r.recurrence, r.dueAt, r.transport, r.chatId, r.source, r.sourceMessageId, now, now);
    return Number(info.lastInsertRowid);
  }

  get(id: number): Reminder | undefined {
    const r = this.db.prepare(`SELECT * FROM reminders WHERE id = ?`).get(id) as RawReminder | undefined;
    return r ? toReminder(r) : undefined;
  }

  /** One person's reminders in these states (default: waiting), soonest first. */
  list(userId: string, states: readonly ReminderState[] = WAITING_STATES): Reminder[] {
    const marks = states.map(() => "?").join(", ");
    const rows = this.db
      .prepare(`SELECT * FROM reminders WHERE user_id = ? AND state IN (${marks}) ORDER BY due_at, id`)
      .all(userId, ...states) as RawReminder[];
    return rows.map(toReminder);
  }

  /** Every person's reminders, oldest first: for the export. */
  all(userId?: string): Reminder[] {
    const rows = (
      userId === undefined
        ? this.db.prepare(`SELECT * FROM reminders ORDER BY id`).all()
        : this.db.prepare(`SELECT * FROM reminders WHERE user_id = ? ORDER BY id`).all(userId)
    ) as RawReminder[];
    return rows.map(toReminder);
  }

  /** How many reminders of a person still wait. */
  countWaiting(userId: string): number {
    return (this.db.prepare(`SELECT COUNT(*) AS n FROM reminders WHERE user_id = ? AND ${WAITING_SQL}`).get(userId) as { n: number }).n;
  }

  /** The soonest due time of any waiting reminder (ISO), for the scheduler's one timer. */
  nextDueAt(): string | undefined {
    const r = this.db.prepare(`SELECT MIN(due_at) AS due FROM reminders WHERE ${WAITING_SQL}`).get() as { due: string | null };
    return r.due ?? undefined;
  }

  /** Waiting reminders due at `now` or before, oldest due first. */
  due(now: string, limit: number): Reminder[] {
    const rows = this.db.prepare(`SELECT * FROM reminders WHERE ${WAITING_SQL} AND due_at <= ? ORDER BY due_at, id LIMIT ?`).all(now, limit) as RawReminder[];
    return rows.map(toReminder);
  }

  /**
   * Moves a waiting reminder on after its time came: a one-shot to its final
   * state (delivered, missed), a recurring one to its next due time. Only
   * while it still waits at the due time the caller read, so two passes never
   * move one occurrence twice; false when it changed meanwhile.
   */
  fired(id: number, seenDueAt: string, next: { state: ReminderState; dueAt: string; delivered: boolean }, now: string): boolean {
    return (
      this.db
        .prepare(
          `UPDATE reminders SET state = ?, due_at = ?, last_due_at = due_at, delivered_count = delivered_count + ?, updated_at = ?
           WHERE id = ? AND due_at = ? AND ${WAITING_SQL}`,
        )
        .run(next.state, next.dueAt, next.delivered ? 1 : 0, now, id, seenDueAt).changes === 1
    );
  }

  /** Notes her chat-log message of the last delivery (for /why and "what did you remind me of?"). */
  deliveredAs(id: number, messageId: number, now: string): void {
    this.db.prepare(`UPDATE reminders SET last_message_id = ?, updated_at = ? WHERE id = ?`).run(messageId, now, id);
  }

  /** Sets the state of one person's reminder when it is in one of `from`; false when it is not theirs or not in such a state. */
  setState(id: number, userId: string, from: readonly ReminderState[], to: ReminderState, now: string): boolean {
    const marks = from.map(() => "?").join(", ");
    return (
      this.db.prepare(`UPDATE reminders SET state = ?, updated_at = ? WHERE id = ? AND user_id = ? AND state IN (${marks})`).run(to, now, id, userId, ...from)
        .changes === 1
    );
  }

  /** Moves one person's reminder to a new due time and state (a snooze); false when it is not theirs or already closed. */
  moveTo(id: number, userId: string, dueAt: string, state: ReminderState, now: string): boolean {
    return (
      this.db
        .prepare(
          `UPDATE reminders SET due_at = ?, state = ?, updated_at = ? WHERE id = ? AND user_id = ? AND state IN ('pending', 'snoozed', 'delivered', 'missed')`,
        )
        .run(dueAt, state, now, id, userId).changes === 1
    );
  }

  /** The reminders whose delivery is this chat-log message: what /why asks about. */
  byMessage(userId: string, messageId: number): Reminder | undefined {
    const r = this.db
      .prepare(`SELECT * FROM reminders WHERE user_id = ? AND (last_message_id = ? OR source_message_id = ?) ORDER BY id DESC LIMIT 1`)
      .get(userId, messageId, messageId) as RawReminder | undefined;
    return r ? toReminder(r) : undefined;
  }

  /** Writes an exported reminder back (lilo import); returns its new id. */
  restore(r: Omit<Reminder, "id">): number {
    const info = this.db
      .prepare(
        `INSERT INTO reminders (user_id, text, time_zone, recurrence, due_at, state, transport, chat_id, source, source_message_id,
           delivered_count, last_due_at, last_message_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        r.userId,
        r.text,
        r.timeZone,
        r.recurrence,
        r.dueAt,
        r.state,
        r.transport,
        r.chatId,
        r.source,
        r.sourceMessageId,
        r.deliveredCount,
        r.lastDueAt,
        r.lastMessageId,
        r.createdAt,
        r.updatedAt,
      );
    return Number(info.lastInsertRowid);
  }
}
