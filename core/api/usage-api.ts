import type { Clock } from "../foundation/ports/clock.ts";
import type { UsageEntry, UsageGrouping, UsageLedger, UsageRow, UsageTotals } from "../foundation/store/usage-ledger.ts";
import type { Budget, BudgetStatus } from "../foundation/usage/budget.ts";
import { LiloError } from "../foundation/errors.ts";
import { localDay } from "../foundation/util/time.ts";

export type { UsageGrouping, UsageRow, UsageTotals } from "../foundation/store/usage-ledger.ts";
export type { BudgetStatus, PeriodBudget } from "../foundation/usage/budget.ts";

/** A report of the ledger: the range, the sums and the grouped rows. */
export interface UsageSummary {
  /** First and last local day included (undefined: open end). */
  from?: string | undefined;
  to?: string | undefined;
  by: UsageGrouping;
  /** What `cost` is in (LILO_CURRENCY). */
  currency: string;
  total: UsageTotals;
  groups: UsageRow[];
}

/** Today and this month at a glance (`/usage`, `lilo status`). */
export interface UsageOverview {
  currency: string;
  today: { day: string; total: UsageTotals; byRole: UsageRow[] };
  month: { month: string; total: UsageTotals; byRole: UsageRow[] };
  budget: BudgetStatus;
}

/** What Lilo spent on model calls, from the usage ledger: the one way into it for the CLI, the chats and the web pages. */
export interface UsageApi {
  /**
   * Sums and rows grouped by role, model, user, day or month, from `from` to
   * `to` (local days YYYY-MM-DD, both included; default: everything kept).
   * Throws a LiloError "invalid-input" for a malformed day.
   */
  summary(opts?: { from?: string | undefined; to?: string | undefined; by?: UsageGrouping | undefined }): UsageSummary;
  /** Today and this month, each by role, with the budgets. */
  overview(): UsageOverview;
  /** Where spending stands against LILO_BUDGET_DAY / LILO_BUDGET_MONTH now. */
  budget(): BudgetStatus;
  /**
   * Lifts a spent budget's cap for the rest of today (`/budget` in a chat):
   * every model call runs as usual until midnight, then the budgets apply
   * again. Says what happened: "lifted", "already-lifted", "not-spent" (no
   * cap holds, nothing changed) or "no-budget" (none is set).
   */
  liftBudget(): BudgetLift;
  /** Sends a due budget warning (80 % or spent), once per period, outside quiet hours. */
  checkBudget(): Promise<void>;
  /** Every recorded call in the range, oldest first (`lilo export --usage`). */
  entries(opts?: { from?: string | undefined; to?: string | undefined }): (UsageEntry & { id: number })[];
}

/** What `liftBudget` did. */
export type BudgetLift = "lifted" | "already-lifted" | "not-spent" | "no-budget";

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The usage use case over the ledger and the budgets. */
export function usageApi(deps: {
  ledger: UsageLedger;
  budget: Budget;
  clock: Clock;
  timeZone: string;
  currency: () => string;
  checkBudget: () => Promise<void>;
}): UsageApi {
  const range = (o: { from?: string | undefined; to?: string | undefined }) => {
    for (const [name, day] of Object.entries(o)) {
      if (day !== undefined && (!DAY.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))))
        throw new LiloError("invalid-input", `--${name} "${day}" is not a day (YYYY-MM-DD)`);
    }
    if (o.from && o.to && o.from > o.to) throw new LiloError("invalid-input", `--from ${o.from} is after --to ${o.to}`);
    return { from: o.from, to: o.to };
  };
  return {
    summary(opts = {}) {
      const r = range({ from: opts.from, to: opts.to });
      const by = opts.by ?? "role";
      return { ...r, by, currency: deps.currency(), total: deps.ledger.totals(r), groups: deps.ledger.grouped(r, by) };
    },
    overview() {
      const day = localDay(deps.clock.now(), deps.timeZone);
      const month = day.slice(0, 7);
      const today = { from: day, to: day };
      const thisMonth = { from: `${month}-01`, to: `${month}-31` };
      return {
        currency: deps.currency(),
        today: { day, total: deps.ledger.totals(today), byRole: deps.ledger.grouped(today, "role") },
        month: { month, total: deps.ledger.totals(thisMonth), byRole: deps.ledger.grouped(thisMonth, "role") },
        budget: deps.budget.status(),
      };
    },
    budget: () => deps.budget.status(),
    liftBudget() {
      const status = deps.budget.status();
      if (!status.day && !status.month) return "no-budget";
      if (status.lifted) return "already-lifted";
      return deps.budget.lift() ? "lifted" : "not-spent";
    },
    checkBudget: () => deps.checkBudget(),
    entries: (opts = {}) => deps.ledger.entries(range(opts)),
  };
}
