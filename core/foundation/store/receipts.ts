import type { Db } from "./db.ts";
import { prepared } from "./prepared.ts";

/** The kinds of things a cheat sheet can hold, each pointing at its row. */
export type ReceiptStore = "notes" | "important" | "thoughts" | "diary" | "profile" | "rules" | "messages" | "boundaries";

/** One thing that was on an answer's sheet. */
export interface ReceiptItem {
  store: ReceiptStore;
  id: number;
}

/** What one answer's sheet held: derived data, dropped with the answer (trigger `receipts_prune`). */
interface Receipt {
  id: number;
  userId: string;
  answerId: number;
  items: ReceiptItem[];
  createdAt: string;
}

type RawReceipt = { id: number; user_id: string; answer_id: number; items: string; created_at: string };

const toReceipt = (r: RawReceipt): Receipt => ({
  id: r.id,
  userId: r.user_id,
  answerId: r.answer_id,
  items: JSON.parse(r.items) as ReceiptItem[],
  createdAt: r.created_at,
});

/** The `receipts` table: one row per answer. */
export class ReceiptsStore {
  constructor(private readonly db: Db) {}

  /** Records (or replaces, on a retried answer) what an answer's sheet held. */
  put(userId: string, answerId: number, items: ReceiptItem[], now: string): void {
    prepared(
      this.db,
      `INSERT INTO receipts (user_id, answer_id, items, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(answer_id) DO UPDATE SET items = excluded.items, updated_at = excluded.updated_at`,
    ).run(userId, answerId, JSON.stringify(items), now, now);
  }

  /** The receipt of one answer. */
  get(answerId: number): Receipt | undefined {
    const r = prepared(this.db, `SELECT * FROM receipts WHERE answer_id = ?`).get(answerId) as RawReceipt | undefined;
    return r && toReceipt(r);
  }

  /** The receipt of the user's newest answer that has one. */
  latest(userId: string): Receipt | undefined {
    const r = prepared(this.db, `SELECT * FROM receipts WHERE user_id = ? ORDER BY answer_id DESC LIMIT 1`).get(userId) as RawReceipt | undefined;
    return r && toReceipt(r);
  }

  /** The receipts of the user's newest `limit` answers, newest first. */
  recent(userId: string, limit: number): Receipt[] {
    const rows = prepared(this.db, `SELECT * FROM receipts WHERE user_id = ? ORDER BY answer_id DESC LIMIT ?`).all(userId, limit) as RawReceipt[];
    return rows.map(toReceipt);
  }

  /** Takes one item off every receipt of a user (it was forgotten: /why must not show it again). */
  dropItem(userId: string, item: ReceiptItem, now: string): void {
    const rows = prepared(this.db, `SELECT * FROM receipts WHERE user_id = ? AND items LIKE ?`).all(userId, `%"id":${item.id}}%`) as RawReceipt[];
    const update = prepared(this.db, `UPDATE receipts SET items = ?, updated_at = ? WHERE id = ?`);
    for (const r of rows) {
      const items = toReceipt(r).items.filter((i) => !(i.store === item.store && i.id === item.id));
      update.run(JSON.stringify(items), now, r.id);
    }
  }
}
