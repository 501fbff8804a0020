import type { Clock } from "../ports/clock.ts";
import type { CallPurpose } from "../ports/chat-model.ts";
import type { UsageLedger } from "../store/usage-ledger.ts";
import { localDay } from "../util/time.ts";
import { parseBudget, type BudgetLimit } from "./budget-value.ts";

/** The purposes that stop once a budget is spent: what Lilo does on her own. The chat and its memory go on. */
const BACKGROUND_PURPOSES: ReadonlySet<CallPurpose> = new Set(["diary", "reflection", "greeting", "concern"]);

/** The budget settings as configured now (`config.costs`, live). */
interface BudgetSettings {
  budgetDay: string;
  budgetMonth: string;
  fallbackModel: string;
}

/** One period's budget: the limit, what was spent in its unit, the share (1 = all of it). */
export interface PeriodBudget {
  /** "2026-12-03" for the day, "2026-12" for the month. */
  period: string;
  limit: BudgetLimit;
  spent: number;
  share: number;
}

/** Where spending stands against the budgets. */
export interface BudgetStatus {
  day?: PeriodBudget;
  month?: PeriodBudget;
  /** "spent": a budget is used up (background jobs stop); "warn": 80 % of one is. */
  level: "ok" | "warn" | "spent";
}

/** The share of a budget at which the one-time warning goes out. */
export const WARN_SHARE = 0.8;

/**
 * The day and month budgets against the usage ledger, in Lilo's time zone.
 * Read at each question, so a `lilo settings set budget.day …` applies at once.
 */
export class Budget {
  constructor(
    private readonly ledger: UsageLedger,
    private readonly clock: Clock,
    private readonly timeZone: string,
    private readonly settings: () => BudgetSettings,
  ) {}

  /** The status now. */
  status(): BudgetStatus {
    const s = this.settings();
    const today = localDay(this.clock.now(), this.timeZone);
    const month = today.slice(0, 7);
    const day = this.period(today, today, today, parseBudget(s.budgetDay));
    const mon = this.period(month, `${month}-01`, `${month}-31`, parseBudget(s.budgetMonth));
    const top = Math.max(day?.share ?? 0, mon?.share ?? 0);
    return { ...(day ? { day } : {}), ...(mon ? { month: mon } : {}), level: top >= 1 ? "spent" : top >= WARN_SHARE ? "warn" : "ok" };
  }

  /** May a call for `purpose` run now? Background calls stop once a budget is spent. */
  allows(purpose: CallPurpose | undefined): boolean {
    return !(purpose && BACKGROUND_PURPOSES.has(purpose) && this.status().level === "spent");
  }

  /** The cheaper chat model to switch to now ("provider:model"), when a budget is spent and one is configured. */
  fallbackModel(): string | undefined {
    const fallback = this.settings().fallbackModel;
    return fallback && this.status().level === "spent" ? fallback : undefined;
  }

  private period(name: string, from: string, to: string, limit: BudgetLimit | undefined): PeriodBudget | undefined {
    if (!limit) return undefined;
    const t = this.ledger.totals({ from, to });
    const spent = limit.unit === "tokens" ? t.inputTokens + t.outputTokens : (t.cost ?? 0);
    return { period: name, limit, spent, share: spent / limit.amount };
  }
}
