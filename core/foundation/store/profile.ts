import type { Db } from "./db.ts";
import { prepared } from "./prepared.ts";
import { checkStoreValues, PROFILE_CATEGORIES } from "./values.ts";
import { readProvenance, type Provenance } from "./provenance.ts";

export { PROFILE_CATEGORIES };

/** One profile fact about the user. */
export interface ProfileEntry {
  id: number;
  userId: string;
  category: string;
  text: string;
  createdAt: string;
  updatedAt: string;
}

/** Store 2: short facts about the user by category, always on the cheat sheet. */
export class ProfileStore {
  constructor(private readonly db: Db) {}

  list(userId: string): ProfileEntry[] {
    const rows = prepared(this.db, `SELECT * FROM profile WHERE user_id = ? ORDER BY category, created_at, id`).all(userId) as {
      id: number;
      user_id: string;
      category: string;
      text: string;
      created_at: string;
      updated_at: string;
    }[];
    return rows.map((r) => ({ id: r.id, userId: r.user_id, category: r.category, text: r.text, createdAt: r.created_at, updatedAt: r.updated_at }));
  }

  /**
   * Adds a fact unless the same text is already in that category; returns
   * its id. The category must be one of `PROFILE_CATEGORIES` (values.ts).
   */
  add(userId: string, rawCategory: string, rawText: string, now: string, origin?: Provenance): { id: number; added: boolean } {
    const { category, text } = checkStoreValues("profile", { category: rawCategory, text: rawText });
    const info = this.db
      .prepare(`INSERT OR IGNORE INTO profile (user_id, category, text, created_at, updated_at, provenance, provenance_ref) VALUES (?, ?, ?, ?, ?, ?, ?)`)
      .run(userId, category, text, now, now, origin?.kind ?? null, origin?.ref ?? null);
    if (info.changes > 0) return { id: Number(info.lastInsertRowid), added: true };
    const r = this.db.prepare(`SELECT id FROM profile WHERE user_id = ? AND category = ? AND text = ?`).get(userId, category, text) as { id: number };
    return { id: r.id, added: false };
  }

  update(userId: string, id: number, text: string, now: string): boolean {
    return this.db.prepare(`UPDATE profile SET text = ?, updated_at = ? WHERE id = ? AND user_id = ?`).run(text, now, id, userId).changes > 0;
  }

  /** One of the user's entries with its origin, if it exists. */
  get(userId: string, id: number): (ProfileEntry & { provenance?: Provenance | undefined }) | undefined {
    const r = prepared(this.db, `SELECT * FROM profile WHERE id = ? AND user_id = ?`).get(id, userId) as
      | { id: number; user_id: string; category: string; text: string; created_at: string; updated_at: string; provenance: unknown; provenance_ref: unknown }
      | undefined;
    if (!r) return undefined;
    return { id: r.id, userId: r.user_id, category: r.category, text: r.text, createdAt: r.created_at, updatedAt: r.updated_at, provenance: readProvenance(r) };
  }

  /**
   * Puts a removed entry back (undo of a /why verdict): the same text,
   * category and origin, under its old id while that is still free (receipts
   * name it), else a new one. An entry with the same text in that category
   * is not doubled: its id comes back with `restored: false`.
   */
  restore(
    userId: string,
    e: { id: number; category: string; text: string; provenance?: Provenance | undefined },
    now: string,
  ): { id: number; restored: boolean } {
    const free = prepared(this.db, `SELECT 1 FROM profile WHERE id = ?`).get(e.id) === undefined;
    const info = prepared(
      this.db,
      `INSERT OR IGNORE INTO profile (id, user_id, category, text, created_at, updated_at, provenance, provenance_ref) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(free ? e.id : null, userId, e.category, e.text, now, now, e.provenance?.kind ?? null, e.provenance?.ref ?? null);
    if (info.changes > 0) return { id: Number(info.lastInsertRowid), restored: true };
    const r = prepared(this.db, `SELECT id FROM profile WHERE user_id = ? AND category = ? AND text = ?`).get(userId, e.category, e.text) as { id: number };
    return { id: r.id, restored: false };
  }

  delete(userId: string, id: number): boolean {
    return this.db.prepare(`DELETE FROM profile WHERE id = ? AND user_id = ?`).run(id, userId).changes > 0;
  }
}
