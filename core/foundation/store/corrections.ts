import type { Db } from "./db.ts";
import type { VectorStore } from "../ports/vector-index.ts";
import { prepared } from "./prepared.ts";
import { readProvenance, type Provenance } from "./provenance.ts";

/** What a correction did to a note. */
type CorrectionAction = "delete" | "rewrite";

/** The stores a correction can touch: the memories with a vector, and profile entries (a /why verdict). */
type CorrectedStore = VectorStore | "profile";

/** One automatic correction: nothing is erased, so each entry can be undone. */
export interface CorrectionEntry {
  id: number;
  userId: string;
  store: CorrectedStore;
  /** The corrected (now superseded) row; a profile entry's row is removed, its id is restored by undo when still free. */
  rowId: number;
  action: CorrectionAction;
  oldText: string;
  newText: string | null;
  /** The note holding the new text of a rewrite. */
  newRowId: number | null;
  triggerMessageId: number | null;
  triggerText: string;
  reason: string | null;
  /** A removed profile entry's category and origin, so undo can put it back as it was (null for the vector stores). */
  oldCategory: string | null;
  oldProvenance: Provenance | null;
  undoneAt: string | null;
  createdAt: string;
}

/** What `record` needs; times come from the clock. The old category and origin only for a profile entry. */
export type NewCorrection = Omit<CorrectionEntry, "id" | "undoneAt" | "createdAt" | "oldCategory" | "oldProvenance"> &
  Partial<Pick<CorrectionEntry, "oldCategory" | "oldProvenance">>;

type Raw = {
  id: number;
  user_id: string;
  store: string;
  row_id: number;
  action: string;
  old_text: string;
  new_text: string | null;
  new_row_id: number | null;
  trigger_message_id: number | null;
  trigger_text: string;
  reason: string | null;
  old_category: string | null;
  old_provenance: string | null;
  old_provenance_ref: string | null;
  undone_at: string | null;
  created_at: string;
};

const toEntry = (r: Raw): CorrectionEntry => ({
  id: r.id,
  userId: r.user_id,
  store: r.store as CorrectedStore,
  rowId: r.row_id,
  action: r.action as CorrectionAction,
  oldText: r.old_text,
  newText: r.new_text,
  newRowId: r.new_row_id,
  triggerMessageId: r.trigger_message_id,
  triggerText: r.trigger_text,
  reason: r.reason,
  oldCategory: r.old_category,
  oldProvenance: readProvenance({ provenance: r.old_provenance, provenance_ref: r.old_provenance_ref }) ?? null,
  undoneAt: r.undone_at,
  createdAt: r.created_at,
});

/** The rows of the correction log (`correction_log`); the undo rules live in core/conversation/correction. */
export class CorrectionsStore {
  constructor(private readonly db: Db) {}

  /** Writes one entry at `now`; returns its id. */
  add(c: NewCorrection, now: string): number {
    const info = prepared(
      this.db,
      `INSERT INTO correction_log (user_id, store, row_id, action, old_text, new_text, new_row_id, trigger_message_id, trigger_text, reason,
                                  old_category, old_provenance, old_provenance_ref, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      c.userId,
      c.store,
      c.rowId,
      c.action,
      c.oldText,
      c.newText,
      c.newRowId,
      c.triggerMessageId,
      c.triggerText,
      c.reason,
      c.oldCategory ?? null,
      c.oldProvenance?.kind ?? null,
      c.oldProvenance?.ref ?? null,
      now,
      now,
    );
    return Number(info.lastInsertRowid);
  }

  /** One entry by id. */
  get(id: number): CorrectionEntry | undefined {
    const r = prepared(this.db, `SELECT * FROM correction_log WHERE id = ?`).get(id) as Raw | undefined;
    return r && toEntry(r);
  }

  /** Newest first; one user's entries, or everyone's when `userId` is undefined. */
  list(userId: string | undefined, limit: number): CorrectionEntry[] {
    const rows = (
      userId === undefined
        ? prepared(this.db, `SELECT * FROM correction_log ORDER BY created_at DESC, id DESC LIMIT ?`).all(limit)
        : prepared(this.db, `SELECT * FROM correction_log WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`).all(userId, limit)
    ) as Raw[];
    return rows.map(toEntry);
  }

  /** Every entry a message triggered (undone ones too), oldest first. */
  forTrigger(userId: string, messageId: number): CorrectionEntry[] {
    const rows = prepared(this.db, `SELECT * FROM correction_log WHERE user_id = ? AND trigger_message_id = ? ORDER BY id`).all(userId, messageId) as Raw[];
    return rows.map(toEntry);
  }

  /** The id of the newest not-undone correction of a row, if any. */
  latestOpenFor(store: CorrectedStore, rowId: number): number | undefined {
    const r = prepared(this.db, `SELECT id FROM correction_log WHERE store = ? AND row_id = ? AND undone_at IS NULL ORDER BY id DESC LIMIT 1`).get(
      store,
      rowId,
    ) as { id: number } | undefined;
    return r?.id;
  }

  /** Marks an entry undone at `now`. */
  markUndone(id: number, now: string): void {
    prepared(this.db, `UPDATE correction_log SET undone_at = ?, updated_at = ? WHERE id = ?`).run(now, now, id);
  }
}
