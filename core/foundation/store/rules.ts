import type { Db } from "./db.ts";
import { prepared } from "./prepared.ts";
import { checkStoreValues } from "./values.ts";

/** A behaviour rule the user confirmed. */
export interface Rule {
  id: number;
  userId: string;
  text: string;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

type RawRule = { id: number; user_id: string; text: string; enabled: number; created_at: string; updated_at: string };
const toRule = (r: RawRule): Rule => ({
  id: r.id,
  userId: r.user_id,
  text: r.text,
  enabled: r.enabled === 1,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Store 9: learned rules. Only the yes/no flow adds rules; admins edit them. */
export class RulesStore {
  constructor(private readonly db: Db) {}

  list(userId: string, onlyEnabled = false): Rule[] {
    const sql = `SELECT * FROM rules WHERE user_id = ? ${onlyEnabled ? "AND enabled = 1" : ""} ORDER BY id`;
    return (prepared(this.db, sql).all(userId) as RawRule[]).map(toRule);
  }

  get(id: number): Rule | undefined {
    const r = this.db.prepare(`SELECT * FROM rules WHERE id = ?`).get(id) as RawRule | undefined;
    return r && toRule(r);
  }

  add(userId: string, text: string, now: string, sourceMessageId?: number): number {
    checkStoreValues("rules", { text });
    const info = this.db
      .prepare(`INSERT INTO rules (user_id, text, enabled, source_message_id, created_at, updated_at) VALUES (?, ?, 1, ?, ?, ?)`)
      .run(userId, text, sourceMessageId ?? null, now, now);
    return Number(info.lastInsertRowid);
  }

  setEnabled(id: number, enabled: boolean, now: string): boolean {
    return this.db.prepare(`UPDATE rules SET enabled = ?, updated_at = ? WHERE id = ?`).run(enabled ? 1 : 0, now, id).changes > 0;
  }

  edit(id: number, text: string, now: string): boolean {
    return this.db.prepare(`UPDATE rules SET text = ?, updated_at = ? WHERE id = ?`).run(text, now, id).changes > 0;
  }

  delete(id: number): boolean {
    return this.db.prepare(`DELETE FROM rules WHERE id = ?`).run(id).changes > 0;
  }
}
