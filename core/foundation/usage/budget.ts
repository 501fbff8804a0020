import type { Clock } from "../ports/clock.ts";
import type { CallPurpose } from "../ports/chat-model.ts";
import type { UsageLedger } from "../store/usage-ledger.ts";
import type { SettingsStore } from "../store/settings.ts";
import { withBareProvider } from "../config/providers.ts";
import { localDay } from "../util/time.ts";
import { parseBudget, type BudgetLimit } from "./budget-value.ts";

/** The purposes that stop at the cap even when a fallback model is configured: what Lilo does on her own. */
const BACKGROUND_PURPOSES: ReadonlySet<CallPurpose> = new Set(["diary", "reflection", "greeting", "concern", "history"]);

/** The global setting holding the local day whose cap `/budget` lifted. */
const LIFTED_KEY = "budget.lifted_on";

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
  /** "spent": a budget is used up; "warn": 80 % of one is. */
  level: "ok" | "warn" | "spent";
  /** A budget is spent and its cap holds: no model call runs, except on the fallback model for the chat and its memory. */
  capped: boolean;
  /** A spent budget's cap was lifted for the rest of today (`/budget`): every call runs as usual until midnight. */
  lifted: boolean;
}

/** The share of a budget at which the one-time warning goes out. */
export const WARN_SHARE = 0.8;

/**
 * The day and month budgets against the usage ledger, in Lilo's time zone.
 * Read at each question, so a `lilo settings set budget.day …` applies at once.
 * A spent budget is a hard cap: every model call is refused before it is
 * made, unless it goes to the configured fallback model, until the period
 * renews or a person lifts the cap for the rest of the day.
 */
export class Budget {
  constructor(
    private readonly ledger: UsageLedger,
    private readonly clock: Clock,
    private readonly timeZone: string,
    private readonly settings: () => BudgetSettings,
    private readonly store: Pick<SettingsStore, "get" | "set">,
  ) {}

  /** The status now. */
  status(): BudgetStatus {
    const s = this.settings();
    const today = this.today();
    const month = today.slice(0, 7);
    const day = this.period(today, today, today, parseBudget(s.budgetDay));
    const mon = this.period(month, `${month}-01`, `${month}-31`, parseBudget(s.budgetMonth));
    const top = Math.max(day?.share ?? 0, mon?.share ?? 0);
    const level = top >= 1 ? "spent" : top >= WARN_SHARE ? "warn" : "ok";
    const lifted = level === "spent" && this.store.get(LIFTED_KEY) === today;
    return { ...(day ? { day } : {}), ...(mon ? { month: mon } : {}), level, capped: level === "spent" && !lifted, lifted };
  }

  /** The spent period whose cap holds now (the day's before the month's), or undefined. */
  cap(status: BudgetStatus = this.status()): PeriodBudget | undefined {
    if (!status.capped) return undefined;
    return [status.day, status.month].find((b) => b && b.share >= 1);
  }

  /**
   * May a call for `purpose` on `model` ("provider:model") run now? Below the
   * cap, or with the cap lifted, every call may. At the cap, what Lilo does on
   * her own stops, and anything else only runs on the fallback model.
   */
  allows(purpose: CallPurpose | undefined, model: string): boolean {
    if (!this.status().capped) return true;
    if (purpose && BACKGROUND_PURPOSES.has(purpose)) return false;
    const fallback = this.settings().fallbackModel;
    return !!fallback && sameModel(fallback, model);
  }

  /** The fallback model to switch to now ("provider:model"), while the cap holds and one is configured. */
  fallbackModel(): string | undefined {
    const fallback = this.settings().fallbackModel;
    return fallback && this.status().capped ? fallback : undefined;
  }

  /** Lifts the cap of a spent budget for the rest of today; false when no cap holds now (nothing to lift). */
  lift(): boolean {
    if (!this.status().capped) return false;
    this.store.set(LIFTED_KEY, this.today(), this.clock.now().toISOString());
    return true;
  }

  private today(): string {
    return localDay(this.clock.now(), this.timeZone);
  }

  private period(name: string, from: string, to: string, limit: BudgetLimit | undefined): PeriodBudget | undefined {
    if (!limit) return undefined;
    const t = this.ledger.totals({ from, to });
    const spent = limit.unit === "tokens" ? t.inputTokens + t.outputTokens : (t.cost ?? 0);
    return { period: name, limit, spent, share: spent / limit.amount };
  }
}

/** Do two "provider:model" names mean the same model? */
function sameModel(a: string, b: string): boolean {
  const x = withBareProvider(a);
  const y = withBareProvider(b);
  return x.provider === y.provider && x.name === y.name;
}
