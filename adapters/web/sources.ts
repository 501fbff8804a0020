import { itemRef } from "../../core/internal.ts";
import { type Lilo } from "../../core/index.ts";

/**
 * What the pages show that other parts of Lilo own, each behind a small interface so the real use case
 * plugs in with a few lines: receipts of answers (`/why`) and the usage ledger. "Forget everywhere" is
 * `lilo.forget` itself (pages/forget.tsx).
 * `defaultSources` builds them from what `Lilo` offers today.
 */

/** One thing an answer used. */
export interface ReceiptItem {
  kind: string;
  text: string;
  /** Its short reference ("N12", "M305"), when it can be forgotten from the receipts page. */
  forgetRef?: string | undefined;
}

/** What one answer used. */
export interface Receipt {
  at: string;
  /** The answer itself (Lilo's reply as it is now), or its number when it was forgotten. */
  message: string;
  items: ReceiptItem[];
}

/** Recent answers with what each used, newest first. */
export interface ReceiptsSource {
  recent(userId: string, limit: number): Receipt[] | Promise<Receipt[]>;
}

/** Model use of one role on one day. */
export interface UsageRow {
  /** YYYY-MM-DD (local day). */
  day: string;
  role: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** undefined when no price is known. */
  costUsd: number | undefined;
}

/** Model use per day and role over the last `days` days; one user's, or everyone's without `userId`. */
export interface UsageSource {
  perDay(opts: { userId: string | undefined; days: number }): UsageRow[] | Promise<UsageRow[]>;
}

/** Everything the pages take from outside `Lilo`'s own use cases. */
export interface WebSources {
  receipts: ReceiptsSource;
  usage: UsageSource;
}

/** No receipts are recorded yet: the page says so. */
export const noReceipts: ReceiptsSource = { recent: () => [] };

/** No usage ledger yet: the page says "no data yet". */
export const noUsage: UsageSource = { perDay: () => [] };

/** The receipts /why reads (`lilo.why`), each item as it is now: forgotten and corrected ones are left out. */
export function whyReceipts(lilo: Lilo): ReceiptsSource {
  return {
    recent: (userId, limit) =>
      lilo.why.recent(userId, limit).map((v) => ({
        at: v.createdAt,
        message: lilo.why.item(userId, itemRef("messages", v.answerId))?.text ?? `#${v.answerId}`,
        items: v.items.map((i) => ({ kind: i.store, text: `${i.ref} ${i.text}`, forgetRef: i.actions.includes("forget") ? i.ref : undefined })),
      })),
  };
}

/** Model calls per local day and role from the usage ledger (`lilo.usage`); one user's, or everyone's. */
export function ledgerUsage(lilo: Lilo): UsageSource {
  return {
    perDay: ({ userId, days }) => {
      const from = new Date(lilo.clock.now().getTime() - days * 86_400_000).toISOString().slice(0, 10);
      const byDayRole = new Map<string, UsageRow>();
      for (const e of lilo.usage.entries({ from })) {
        if (userId !== undefined && e.userId !== userId) continue;
        const key = `${e.localDay} ${e.purpose}`;
        const row = byDayRole.get(key) ?? { day: e.localDay, role: e.purpose, calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
        row.calls++;
        row.inputTokens += e.inputTokens;
        row.outputTokens += e.outputTokens;
        // One call without a price makes the day's cost unknown rather than too low.
        row.costUsd = row.costUsd === undefined || e.cost === null ? undefined : row.costUsd + e.cost;
        byDayRole.set(key, row);
      }
      return [...byDayRole.values()].sort((a, b) => a.day.localeCompare(b.day) || a.role.localeCompare(b.role));
    },
  };
}

/** The sources as they exist today; pass others to `createWebApp` to replace one. */
export function defaultSources(lilo: Lilo, given: Partial<WebSources> = {}): WebSources {
  return { receipts: given.receipts ?? whyReceipts(lilo), usage: given.usage ?? ledgerUsage(lilo) };
}
