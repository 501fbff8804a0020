import type { Db } from "../../foundation/store/db.ts";
import { CorrectionsStore, type CorrectionEntry, type NewCorrection } from "../../foundation/store/corrections.ts";
import { ProfileStore } from "../../foundation/store/profile.ts";
import type { Clock } from "../../foundation/ports/clock.ts";
import type { Memory } from "../../memory/memory.ts";
import { LiloError, NotFoundError } from "../../foundation/errors.ts";

export type { CorrectionEntry, NewCorrection } from "../../foundation/store/corrections.ts";

/** An undone correction, with the id the restored entry has now (a profile entry whose old id was taken since gets a new one). */
export type UndoneCorrection = CorrectionEntry & { restoredRowId: number };

/**
 * The correction log (docs/spec.md §3 logs, §6.4): old text, new text, the message
 * that triggered it and the judge's reason. A corrected note is superseded,
 * never erased, so `undo` brings it back — row and vector. A profile entry
 * (no vector, nothing to supersede) is logged with its category and origin
 * before it goes, and `undo` puts it back as it was.
 */
export class CorrectionLog {
  private readonly entries: CorrectionsStore;
  private readonly profile: ProfileStore;

  constructor(
    db: Db,
    private readonly memory: Memory,
    private readonly clock: Clock,
  ) {
    this.entries = new CorrectionsStore(db);
    this.profile = new ProfileStore(db);
  }

  /** Writes one entry; returns it as stored. */
  record(c: NewCorrection): CorrectionEntry {
    return this.get(this.entries.add(c, this.clock.now().toISOString()))!;
  }

  /** One entry by id. */
  get(id: number): CorrectionEntry | undefined {
    return this.entries.get(id);
  }

  /** Newest first; one user's entries, or everyone's when `userId` is undefined. */
  list(opts: { userId?: string | undefined; limit?: number } = {}): CorrectionEntry[] {
    return this.entries.list(opts.userId, opts.limit ?? 50);
  }

  /** Every entry a message triggered (undone ones too): a retried message is judged only once. */
  forTrigger(userId: string, messageId: number): CorrectionEntry[] {
    return this.entries.forTrigger(userId, messageId);
  }

  /**
   * Takes a correction back: the old note is restored with its vector, then
   * the new note of a rewrite is forgotten (if it still exists — an admin may
   * have deleted it), and the entry is marked undone. Restoring comes first:
   * if embedding fails, nothing has changed. A rewritten note that was edited
   * or corrected again since is not thrown away: the undo is refused.
   */
  async undo(id: number): Promise<UndoneCorrection> {
    const entry = this.get(id);
    if (!entry) throw new NotFoundError(`No correction with id ${id}`);
    if (entry.undoneAt) throw new LiloError("invalid-input", `Correction ${id} was undone already (${entry.undoneAt})`);
    if (entry.store === "profile") return this.undoProfile(entry);
    const rows = this.memory.rows[entry.store];
    const old = rows.get(entry.rowId);
    if (!old) throw new NotFoundError(`The corrected ${entry.store} entry #${entry.rowId} no longer exists (deleted by hand); nothing to restore`);
    const added = entry.newRowId === null ? undefined : rows.get(entry.newRowId);
    if (added?.supersededAt) {
      const later = this.entries.latestOpenFor(entry.store, added.id);
      throw new LiloError(
        "invalid-input",
        `The rewritten ${entry.store} #${added.id} was corrected again${later !== undefined ? ` (correction #${later})` : ""}; undo that first`,
      );
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
    this.entries.markUndone(id, this.clock.now().toISOString());
    return { ...this.get(id)!, restoredRowId: entry.rowId };
  }

  /** A removed profile entry returns with its text, category and origin (an identical entry added since is kept, not doubled). */
  private undoProfile(entry: CorrectionEntry): UndoneCorrection {
    if (entry.oldCategory === null) throw new LiloError("internal", `Correction ${entry.id} of a profile entry has no category; nothing to restore`);
    const now = this.clock.now().toISOString();
    const back = this.profile.restore(
      entry.userId,
      { id: entry.rowId, category: entry.oldCategory, text: entry.oldText, provenance: entry.oldProvenance ?? undefined },
      now,
    );
    this.entries.markUndone(entry.id, now);
    return { ...this.get(entry.id)!, restoredRowId: back.id };
  }
}
