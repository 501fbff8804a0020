import type { Logger } from "../../foundation/ports/logger.ts";
import type { SettingsStore } from "../../foundation/store/settings.ts";
import type { Clock } from "../../foundation/ports/clock.ts";
import type { Budget, PeriodBudget } from "../../foundation/usage/budget.ts";
import type { BudgetTold } from "../../foundation/usage/budget-told.ts";
import { WARN_SHARE } from "../../foundation/usage/budget.ts";
import type { Push } from "../push/push.ts";
import { BUDGET_TEXTS } from "../../foundation/usage/budget-texts.ts";
import { spendOfLimit } from "../../foundation/usage/spend.ts";

/** What the warning needs. */
interface BudgetWarningDeps {
  budget: Budget;
  /** Who was told today that the budget is spent (shared with the chat's notice). */
  told: BudgetTold;
  push: Push;
  settings: SettingsStore;
  clock: Clock;
  logger: Logger;
  /** Who may get a push: the users Lilo knows. */
  users: () => string[];
}

/** The slice it reads live: currency, recipients, fallback model, language. */
interface BudgetWarningConfig {
  costs: { currency: string; notify: string; fallbackModel: string };
  language: "de" | "en";
}

/** Per period, the highest level already warned about: "2026-12-03:80". */
const WARNED_KEY = { day: "budget.warned_day", month: "budget.warned_month" } as const;

/**
 * The one-time budget warnings: at 80 % of the day's or month's budget a
 * heads-up, at 100 % what pauses and how to go on — each once per period,
 * pushed to the configured users (or everyone who opted in). The 100 % push
 * skips a person the chat has told today, and marks those it tells, so no one
 * hears "spent" twice. In quiet hours nothing is sent and nothing marked: the
 * next check after they end sends it (a recorded call, or the scheduler's
 * poll). While the cap is lifted for today nothing is sent.
 */
export function budgetWarnings(deps: BudgetWarningDeps, config: BudgetWarningConfig): { check(): Promise<void> } {
  let running: Promise<void> | undefined;
  const checkOnce = async () => {
    const status = deps.budget.status();
    if (status.lifted) return;
    for (const period of ["day", "month"] as const) {
      const b = status[period];
      if (!b) continue;
      const level = b.share >= 1 ? 100 : b.share >= WARN_SHARE ? 80 : 0;
      if (!level || warnedLevel(deps, period, b.period) >= level) continue;
      if (deps.push.quietNow()) return;
      await send(deps, config, period, b, level);
      deps.settings.set(WARNED_KEY[period], `${b.period}:${level}`, deps.clock.now().toISOString());
    }
  };
  return {
    // One check at a time: two calls finishing together must not send the warning twice.
    check: async () => {
      while (running) await running;
      running = checkOnce().finally(() => (running = undefined));
      return running;
    },
  };
}

function warnedLevel(deps: BudgetWarningDeps, period: "day" | "month", name: string): number {
  const [warnedFor, level] = (deps.settings.get(WARNED_KEY[period]) ?? "").split(":");
  return warnedFor === name ? Number(level) || 0 : 0;
}

async function send(deps: BudgetWarningDeps, config: BudgetWarningConfig, period: "day" | "month", b: PeriodBudget, level: 80 | 100): Promise<void> {
  const texts = BUDGET_TEXTS[config.language];
  const spend = spendOfLimit(b.spent, b.limit, config.costs.currency, config.language);
  const text = level === 80 ? texts.warning(period, Math.floor(b.share * 100), spend) : texts.spentPush(period, spend, config.costs.fallbackModel || undefined);
  const named = config.costs.notify
    .split(",")
    .map((u) => u.trim())
    .filter(Boolean);
  const recipients = (named.length ? named : deps.users()).filter((u) => deps.push.target(u));
  deps.logger.warn(`budget ${level >= 100 ? "spent" : "at 80 %"}`, { period: b.period, spent: b.spent, limit: b.limit.amount, unit: b.limit.unit, recipients });
  for (const userId of recipients) {
    // Claimed before sending, so an answer finishing meanwhile does not say it too; released when the push did not go out.
    if (level === 100 && !deps.told.claim(userId)) continue;
    const outcome = await deps.push.send(userId, { kind: "budget", text });
    if (level === 100 && outcome !== "sent" && outcome !== "queued") deps.told.release(userId);
  }
}
