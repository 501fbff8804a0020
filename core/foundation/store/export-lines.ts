import type { Db } from "./db.ts";

/** One exported line: the fields `lilo memory import` reads, plus what the store keeps besides. */
export interface ExportLine {
  store: string;
  text: string;
  createdAt: string;
  userId: string;
  [field: string]: unknown;
}

/** The stores `lilo export` writes, in this order; `messages` only on request. */
export const EXPORT_STORES = ["notes", "important", "thoughts", "diary", "profile", "rules", "topics", "reminders", "messages"] as const;
export type ExportStore = (typeof EXPORT_STORES)[number];

/** Where a memory came from: exported with it. */
const PROVENANCE = { provenance: "provenance", provenance_ref: "provenanceRef" } as const;

/**
 * Store-specific columns (SQL column → JSON field). The settings table is
 * deliberately not exported: it is program state, and a key must never leave.
 */
const FIELDS: Record<ExportStore, Record<string, string>> = {
  notes: { kind: "kind", superseded_at: "supersededAt", subject: "about", ...PROVENANCE },
  important: { weight: "weight", superseded_at: "supersededAt", subject: "about", ...PROVENANCE },
  thoughts: { origin: "origin", questions: "questions", superseded_at: "supersededAt", ...PROVENANCE },
  diary: { day: "day", superseded_at: "supersededAt", ...PROVENANCE },
  profile: { category: "category", ...PROVENANCE },
  rules: { enabled: "enabled" },
  topics: { kind: "kind", status: "status", due_at: "dueAt", done_at: "doneAt" },
  messages: { role: "role", conversation_id: "conversationId", model: "model", mood: "mood", stopped: "stopped" },
  reminders: {
    time_zone: "timeZone",
    recurrence: "recurrence",
    due_at: "dueAt",
    state: "state",
    transport: "transport",
    chat_id: "chatId",
    source: "source",
    source_message_id: "sourceMessageId",
    delivered_count: "deliveredCount",
    last_due_at: "lastDueAt",
    last_message_id: "lastMessageId",
    updated_at: "updatedAt",
  },
};

/** Flags stored as 0/1, exported as true when set and left out otherwise. */
const FLAGS = new Set(["stopped"]);

/** Memory stores keep corrected (superseded) rows for undo; only what Lilo knows now is exported. */
const LIVE_ONLY = new Set<ExportStore>(["notes", "important", "thoughts", "diary"]);

/** Rows of one store as export lines, oldest first; one user's or (userId undefined) everyone's. */
export function exportStore(db: Db, store: ExportStore, userId: string | undefined): ExportLine[] {
  const where = [LIVE_ONLY.has(store) ? "superseded_at IS NULL" : "", userId !== undefined ? "user_id = ?" : ""].filter(Boolean);
  const sql = `SELECT * FROM ${store} ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY created_at, id`;
  const rows = db.prepare(sql).all(...(userId !== undefined ? [userId] : [])) as Record<string, unknown>[];
  return rows.map((r) => {
    const line: ExportLine = { store, text: r.text as string, createdAt: r.created_at as string, userId: r.user_id as string, id: r.id };
    for (const [col, field] of Object.entries(FIELDS[store])) {
      const v = r[col];
      if (v === null || v === undefined || (col === "superseded_at" && !v) || (FLAGS.has(col) && !v)) continue;
      line[field] = col === "enabled" || FLAGS.has(col) ? v === 1 : v;
    }
    return line;
  });
}
