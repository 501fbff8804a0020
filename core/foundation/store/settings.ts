import { prepared } from "./prepared.ts";
import type { Db } from "./db.ts";

/** User id under which settings that apply to everyone are kept. */
export const GLOBAL = "*";

/** Run-time settings that users change while Lilo runs (e.g. the chat model). */
export class SettingsStore {
  constructor(private readonly db: Db) {}

  get(key: string, userId = GLOBAL): string | undefined {
    const r = prepared(this.db, `SELECT value FROM settings WHERE user_id = ? AND key = ?`).get(userId, key) as { value: string } | undefined;
    return r?.value;
  }

  set(key: string, value: string, now: string, userId = GLOBAL): void {
    this.db
      .prepare(
        `INSERT INTO settings (user_id, key, value, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      )
      .run(userId, key, value, now, now);
  }

  /** Every global setting whose key starts with `prefix`, by key. */
  list(prefix: string): { key: string; value: string }[] {
    return prepared(this.db, `SELECT key, value FROM settings WHERE user_id = ? AND substr(key, 1, ?) = ? ORDER BY key`).all(GLOBAL, prefix.length, prefix) as {
      key: string;
      value: string;
    }[];
  }

  /** Every stored setting, of everyone and of each user, by key. */
  all(): { userId: string; key: string; value: string }[] {
    return prepared(this.db, `SELECT user_id AS userId, key, value FROM settings ORDER BY key, user_id`).all() as {
      userId: string;
      key: string;
      value: string;
    }[];
  }

  delete(key: string, userId = GLOBAL): void {
    prepared(this.db, `DELETE FROM settings WHERE user_id = ? AND key = ?`).run(userId, key);
  }
}
