/**
 * The rows an import (`lilo import`) writes to the stores without vectors:
 * profile, rules and topics, with the times and states from the file. The
 * vector stores are written through their row classes (core/foundation/store/text-rows.ts).
 */
import type { Db } from "./db.ts";
import { checkStoreValues } from "./values.ts";

/** The stores without vectors that an import writes. */
type PlainImportStore = "profile" | "rules" | "topics";

/** Is this text already stored for the user (profile: in this category)? */
export function hasImportedText(db: Db, store: PlainImportStore, userId: string, text: string, category?: string): boolean {
  const extra = store === "profile" ? " AND category = ?" : "";
  const args = store === "profile" ? [userId, text, category] : [userId, text];
  return db.prepare(`SELECT 1 FROM ${store} WHERE user_id = ? AND text = ?${extra} LIMIT 1`).get(...args) !== undefined;
}

/** Inserts a profile line as imported; returns its id. */
export function insertImportedProfile(
  db: Db,
  l: { userId: string; category: string; text: string; at: string; provenance: string; provenanceRef: string | null },
): number {
  checkStoreValues("profile", l);
  return run(
    db,
    `INSERT INTO profile (user_id, category, text, created_at, updated_at, provenance, provenance_ref) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    l.userId,
    l.category,
    l.text,
    l.at,
    l.at,
    l.provenance,
    l.provenanceRef,
  );
}

/** Inserts a rule as imported; returns its id. */
export function insertImportedRule(db: Db, l: { userId: string; text: string; enabled: boolean; at: string }): number {
  checkStoreValues("rules", l);
  return run(db, `INSERT INTO rules (user_id, text, enabled, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`, l.userId, l.text, l.enabled ? 1 : 0, l.at, l.at);
}

/** Inserts a topic as imported, with its status and times; returns its id. */
export function insertImportedTopic(
  db: Db,
  l: { userId: string; text: string; kind: string; status: string; dueAt: string; doneAt: string | null; at: string },
): number {
  checkStoreValues("topics", l);
  return run(
    db,
    `INSERT INTO topics (user_id, text, kind, status, due_at, done_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    l.userId,
    l.text,
    l.kind,
    l.status,
    l.dueAt,
    l.doneAt,
    l.at,
    l.at,
  );
}

/** A reminder as an import writes it: its rule, times and state as exported; the chat-log ids of the old database are not carried. */
export interface ImportedReminder {
  userId: string;
  text: string;
  timeZone: string;
  recurrence: string | null;
  dueAt: string;
  state: string;
  transport: string;
  chatId: string;
  source: string;
  deliveredCount: number;
  lastDueAt: string | null;
  at: string;
}

/** Is this reminder (same text, due time and rule) already stored for the user? */
export function hasImportedReminder(db: Db, l: Pick<ImportedReminder, "userId" | "text" | "dueAt" | "recurrence">): boolean {
  return (
    db
      .prepare(`SELECT 1 FROM reminders WHERE user_id = ? AND text = ? AND due_at = ? AND recurrence IS ? LIMIT 1`)
      .get(l.userId, l.text, l.dueAt, l.recurrence) !== undefined
  );
}

/** Inserts a reminder as imported; returns its id. A waiting one is rung by the scheduler as any other (late, or missed past the limit). */
export function insertImportedReminder(db: Db, l: ImportedReminder): number {
  return run(
    db,
    `INSERT INTO reminders (user_id, text, time_zone, recurrence, due_at, state, transport, chat_id, source, delivered_count, last_due_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    l.userId,
    l.text,
    l.timeZone,
    l.recurrence,
    l.dueAt,
    l.state,
    l.transport,
    l.chatId,
    l.source,
    l.deliveredCount,
    l.lastDueAt,
    l.at,
    l.at,
  );
}

function run(db: Db, sql: string, ...args: (string | number | null)[]): number {
  return Number(db.prepare(sql).run(...args).lastInsertRowid);
}
