import type { Budget, PeriodBudget } from "../../foundation/usage/budget.ts";
import type { BudgetTold } from "../../foundation/usage/budget-told.ts";
import type { TurnContext, TurnMiddleware, TurnResult } from "./types.ts";
import { BUDGET_TEXTS } from "../../foundation/usage/budget-texts.ts";
import { spendOfLimit } from "../../foundation/usage/spend.ts";

/** What the budget's middleware reads. */
interface BudgetNoticeDeps {
  budget: Budget;
  /** Who was told today (shared with the pushed warning). */
  told: BudgetTold;
}

/** Its configuration slice (`costs` is live). */
interface BudgetNoticeConfig {
  costs: { currency: string };
  language: "de" | "en";
}

/**
 * The chat's side of the budget's cap, right after the message is stored.
 * While the cap holds and no fallback model is configured, the turn ends
 * here: no model is asked, the message stays stored as failed (so `/retry`
 * answers it once the cap is lifted), and the person is told once a day how
 * to go on; later messages that day get no words, only the adapters' 😴
 * reaction. Otherwise the turn runs (on the fallback model, through the model
 * registry, when the cap holds), and the first answer once the cap holds
 * says so, unless the person was told today already (by the push or the chat).
 */
export function budgetNotice(deps: BudgetNoticeDeps, config: BudgetNoticeConfig): TurnMiddleware {
  return {
    name: "budgetNotice",
    async run(ctx, next) {
      const cap = deps.budget.cap();
      if (cap && !deps.budget.fallbackModel()) {
        ctx.result = paused(deps, config, ctx, cap);
        return;
      }
      await next();
      const result = ctx.result;
      if (!result?.ok || result.duplicate) return;
      const spent = deps.budget.cap();
      if (!spent || !deps.told.claim(ctx.userId)) return;
      const notice = BUDGET_TEXTS[config.language].spentNotice(periodOf(spent), spendText(config, spent), deps.budget.fallbackModel());
      ctx.result = { ...result, text: `${result.text}\n\n${notice}` };
    },
  };
}

/** The turn held back by the cap: the sentence when the person has not heard it today or asked with /retry, else nothing. */
function paused(deps: BudgetNoticeDeps, config: BudgetNoticeConfig, ctx: TurnContext, cap: PeriodBudget): TurnResult {
  // A /retry is asked for: it always gets the sentence, and counts as told.
  const tell = deps.told.claim(ctx.userId) || ctx.input.kind === "retry";
  return {
    ok: false,
    paused: true,
    text: tell ? BUDGET_TEXTS[config.language].paused(periodOf(cap), spendText(config, cap)) : "",
    userMessageId: ctx.userMessage.id,
    notesUsed: [],
    error: { code: "budget-spent", message: "the budget is spent: no model was asked; /retry answers the message once the cap is lifted", retryable: true },
  };
}

const periodOf = (b: PeriodBudget): "day" | "month" => (b.period.length === 10 ? "day" : "month");

const spendText = (config: BudgetNoticeConfig, b: PeriodBudget) => spendOfLimit(b.spent, b.limit, config.costs.currency, config.language);
