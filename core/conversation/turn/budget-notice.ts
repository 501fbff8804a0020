import type { Budget } from "../../foundation/usage/budget.ts";
import type { SettingsStore } from "../../foundation/store/settings.ts";
import type { Clock } from "../../foundation/ports/clock.ts";
import type { TurnMiddleware } from "./types.ts";
import { budgetSpentNotice, spendOfLimit } from "../../foundation/usage/spend.ts";

/** Per user: the budget period whose spent-notice the user has seen ("2026-12-03" or "2026-12"). */
const NOTICE_KEY = "budget.notice_seen";

/** What the notice reads. */
interface BudgetNoticeDeps {
  budget: Budget;
  settings: SettingsStore;
  clock: Clock;
}

/**
 * Once a day's or month's budget is spent the chat goes on (LILO_BUDGET_FALLBACK_MODEL
 * answers, when set, through the model registry); this middleware tells each
 * user so under the first answer of that period, once.
 */
export function budgetNotice(deps: BudgetNoticeDeps, config: { costs: { currency: string; fallbackModel: string }; language: "de" | "en" }): TurnMiddleware {
  return {
    name: "budgetNotice",
    async run(ctx, next) {
      await next();
      const result = ctx.result;
      if (!result?.ok || result.duplicate) return;
      const status = deps.budget.status();
      if (status.level !== "spent") return;
      const spent = [status.day, status.month].find((b) => b && b.share >= 1);
      if (!spent || deps.settings.get(NOTICE_KEY, ctx.userId) === spent.period) return;
      deps.settings.set(NOTICE_KEY, spent.period, deps.clock.now().toISOString(), ctx.userId);
      const notice = budgetSpentNotice(
        config.language,
        spendOfLimit(spent.spent, spent.limit, config.costs.currency, config.language),
        config.costs.fallbackModel || undefined,
      );
      ctx.result = { ...result, text: `${result.text}\n\n${notice}` };
    },
  };
}
