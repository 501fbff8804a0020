/**
 * Receipts: what was on an answer's cheat sheet — ids per memory
 * store, the chat messages of its passages, the rules — recorded with the
 * answer and shown by /why with what each item is now, where it came from
 * and whom it is about. A receipt is derived data: dropped with its answer,
 * and a forgotten item is taken off it.
 */
import type { Memory } from "../memory.ts";
import type { ForgetRows } from "../../foundation/store/forget-rows.ts";
import type { ReceiptItem, ReceiptsStore, ReceiptStore } from "../../foundation/store/receipts.ts";
import type { RulesStore } from "../../foundation/store/rules.ts";
import { readProvenance, type Provenance } from "../../foundation/store/provenance.ts";
import { VECTOR_STORES, type VectorStore } from "../../foundation/ports/vector-index.ts";
import { itemRef } from "./item-ref.ts";

/** What the user can do with one item of a receipt. */
export type WhyAction = "wrong" | "outdated" | "forget";

/** One item of a receipt as /why shows it. */
export interface WhyItem {
  store: ReceiptStore;
  id: number;
  /** Its short reference ("N12"), for typed commands and button data. */
  ref: string;
  text: string;
  createdAt: string;
  provenance?: Provenance | undefined;
  /** Whom it is about ("user", "lilo" or a name), where recorded. */
  subject?: string | undefined;
  actions: WhyAction[];
}

/** The receipt of one answer, with its items as they are now (forgotten and corrected ones are left out). */
export interface WhyView {
  answerId: number;
  userId: string;
  createdAt: string;
  items: WhyItem[];
}

/** What reading receipts needs. */
interface ReceiptsDeps {
  store: ReceiptsStore;
  memory: Memory;
  rows: ForgetRows;
  rules: RulesStore;
}

const isVector = (s: ReceiptStore): s is VectorStore => (VECTOR_STORES as readonly string[]).includes(s);

/** Records and reads receipts. */
export class Receipts {
  constructor(private readonly d: ReceiptsDeps) {}

  /** Records what an answer's sheet held (a retried answer replaces its receipt). */
  record(userId: string, answerId: number, items: ReceiptItem[], now: string): void {
    const seen = new Set<string>();
    const unique = items.filter((i) => (seen.has(`${i.store}:${i.id}`) ? false : (seen.add(`${i.store}:${i.id}`), true)));
    this.d.store.put(userId, answerId, unique, now);
  }

  /**
   * The receipt of `answerId`, or of the user's newest answer. With a user
   * id, only that user's receipt (another user's answer id looks missing).
   */
  view(userId: string | undefined, answerId?: number): WhyView | undefined {
    const receipt = answerId !== undefined ? this.d.store.get(answerId) : userId !== undefined ? this.d.store.latest(userId) : undefined;
    if (!receipt || (userId !== undefined && receipt.userId !== userId)) return undefined;
    return { answerId: receipt.answerId, userId: receipt.userId, createdAt: receipt.createdAt, items: this.resolve(receipt.userId, receipt.items) };
  }

  /** The receipts of the user's newest `limit` answers, newest first, each with its items as they are now. */
  recent(userId: string, limit: number): WhyView[] {
    return this.d.store
      .recent(userId, limit)
      .map((r) => ({ answerId: r.answerId, userId: r.userId, createdAt: r.createdAt, items: this.resolve(r.userId, r.items) }));
  }

  /** One item of a user as it is now (for an action on it), or undefined. */
  item(userId: string, store: ReceiptStore, id: number): WhyItem | undefined {
    return this.resolve(userId, [{ store, id }])[0];
  }

  private resolve(userId: string, items: ReceiptItem[]): WhyItem[] {
    return items.flatMap((i): WhyItem[] => {
      const base = { store: i.store, id: i.id, ref: itemRef(i.store, i.id) };
      if (isVector(i.store)) {
        const row = this.d.memory.rows[i.store].get(i.id);
        if (!row || row.userId !== userId || row.supersededAt || row.forgottenAt) return [];
        const subject = typeof row.extra.subject === "string" ? row.extra.subject : undefined;
        return [
          { ...base, text: row.text, createdAt: row.createdAt, provenance: readProvenance(row.extra), subject, actions: ["wrong", "outdated", "forget"] },
        ];
      }
      if (i.store === "rules") {
        const rule = this.d.rules.get(i.id);
        if (!rule || rule.userId !== userId || !rule.enabled) return [];
        return [{ ...base, text: rule.text, createdAt: rule.createdAt, provenance: { kind: "user" }, actions: ["wrong", "outdated"] }];
      }
      if (i.store === "boundaries") return [];
      const [row] = this.d.rows.byIds(i.store, userId, [i.id]);
      if (!row) return [];
      const actions: WhyAction[] = i.store === "messages" ? ["forget"] : ["wrong", "outdated", "forget"];
      return [{ ...base, text: row.text, createdAt: row.createdAt, provenance: row.provenance, actions }];
    });
  }
}
