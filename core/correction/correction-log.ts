import type { Db } from "../store/db.ts";
import type { Clock } from "../ports/clock.ts";
import type { Memory } from "../memory/memory.ts";
import type { VectorStore } from "../ports/vector-index.ts";
import { LiloError, NotFoundError } from "../errors.ts";

/** What a correction did to a note. */
export type CorrectionAction = "delete" | "rewrite";

/** One automatic correction: nothing is erased, so each entry can be undone. */
export interface CorrectionEntry {
  id: number;
  userId: string;
  store: VectorStore;
  /** The corrected (now superseded) row. */
  rowId: number;
  action: CorrectionAction;
  oldText: string;
  newText: string | null;
  /** The note holding the new text of a rewrite. */
  newRowId: number | null;
  triggerMessageId: number | null;
  triggerText: string;
  reason: string | null;
  undoneAt: string | null;
  createdAt: string;
}

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
  undone_at: string | null;
  created_at: string;
};

const toEntry = (r: Raw): CorrectionEntry => ({
  id: r.id,
  userId: r.user_id,
  store: r.store as VectorStore,
  rowId: r.row_id,
  action: r.action as CorrectionAction,
  oldText: r.old_text,
  newText: r.new_text,
  newRowId: r.new_row_id,
  triggerMessageId: r.trigger_message_id,
  triggerText: r.trigger_text,
  reason: r.reason,
  undoneAt: r.undone_at,
  createdAt: r.created_at,
});

/** What `record` needs; times come from the clock. */
export type NewCorrection = Omit<CorrectionEntry, "id" | "undoneAt" | "createdAt">;

/**
 * The correction log (SPEC §3 logs, §6.4): old text, new text, the message
 * that triggered it and the judge's reason. A corrected note is superseded,
 * never erased, so `undo` brings it back — row and vector.
 */
export class CorrectionLog {
  constructor(
    private readonly db: Db,
    private readonly memory: Memory,
    private readonly clock: Clock,
  ) {}

  /** Writes one entry; returns it as stored. */
  record(c: NewCorrection): CorrectionEntry {
    const now = this.clock.now().toISOString();
    const info = this.db
      .prepare(
        `INSERT INTO correction_log (user_id, store, row_id, action, old_text, new_text, new_row_id, trigger_message_id, trigger_text, reason, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(c.userId, c.store, c.rowId, c.action, c.oldText, c.newText, c.newRowId, c.triggerMessageId, c.triggerText, c.reason, now, now);
    return this.get(Number(info.lastInsertRowid))!;
  }

  /** One entry by id. */
  get(id: number): CorrectionEntry | undefined {
    const r = this.db.prepare(`SELECT * FROM correction_log WHERE id = ?`).get(id) as Raw | undefined;
    return r && toEntry(r);
  }

  /** Newest first; one user's entries, or everyone's when `userId` is undefined. */
  list(opts: { userId?: string | undefined; limit?: number } = {}): CorrectionEntry[] {
    const limit = opts.limit ?? 50;
    const rows = (
      opts.userId === undefined
        ? this.db.prepare(`SELECT * FROM correction_log ORDER BY created_at DESC, id DESC LIMIT ?`).all(limit)
        : this.db.prepare(`SELECT * FROM correction_log WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`).all(opts.userId, limit)
    ) as Raw[];
    return rows.map(toEntry);
  }

  /** Every entry a message triggered (undone ones too): a retried message is judged only once. */
  forTrigger(userId: string, messageId: number): CorrectionEntry[] {
    const rows = this.db.prepare(`SELECT * FROM correction_log WHERE user_id = ? AND trigger_message_id = ? ORDER BY id`).all(userId, messageId) as Raw[];
    return rows.map(toEntry);
  }

  /**
   * Takes a correction back: the old note is restored with its vector, then
   * the new note of a rewrite is forgotten (if it still exists — an admin may
   * have deleted it), and the entry is marked undone. Restoring comes first:
   * if embedding fails, nothing has changed. A rewritten note that was edited
   * or corrected again since is not thrown away: the undo is refused.
   */
  async undo(id: number): Promise<CorrectionEntry> {
    const entry = this.get(id);
    if (!entry) throw new NotFoundError(`No correction with id ${id}`);
    if (entry.undoneAt) throw new LiloError("invalid-input", `Correction ${id} was undone already (${entry.undoneAt})`);
    const rows = this.memory.rows[entry.store];
    const old = rows.get(entry.rowId);
    if (!old) throw new NotFoundError(`The corrected ${entry.store} entry #${entry.rowId} no longer exists (deleted by hand); nothing to restore`);
    const added = entry.newRowId === null ? undefined : rows.get(entry.newRowId);
    if (added?.supersededAt) {
      const later = this.db.prepare(`SELECT id FROM correction_log WHERE store = ? AND row_id = ? AND undone_at IS NULL ORDER BY id DESC LIMIT 1`).get(entry.store, added.id) as { id: number } | undefined;
      throw new LiloError("invalid-input", `The rewritten ${entry.store} #${added.id} was corrected again${later ? ` (correction #${later.id})` : ""}; undo that first`);
    }
    if (added && added.text !== entry.newText) {
      throw new LiloError(
        "invalid-input",
        `The rewritten ${entry.store} #${added.id} was edited since ("${added.text}"); undoing would throw that edit away. Delete it by hand first (lilo memory delete ${added.id} --store ${entry.store}), then undo.`,
      );
    }
    // The old text comes from the log: an undo restores exactly what was corrected.
    await this.memory.restore(entry.store, entry.rowId, entry.oldText);
    if (added) await this.memory.forget(entry.store, added.id);
    const now = this.clock.now().toISOString();
    this.db.prepare(`UPDATE correction_log SET undone_at = ?, updated_at = ? WHERE id = ?`).run(now, now, id);
    return this.get(id)!;
  }
}
