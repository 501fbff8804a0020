/**
 * The usage ledger's wiring: the store, the budgets read from the live
 * configuration, and the decorator every model goes through. Old calls are
 * pruned once a day, after a recorded call.
 */
import type { LiloConfig } from "../../foundation/config/config.ts";
import type { ChatModel } from "../../foundation/ports/chat-model.ts";
import type { Clock } from "../../foundation/ports/clock.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import type { Db } from "../../foundation/store/db.ts";
import type { ModelRegistry } from "../../foundation/models/registry.ts";
import type { SettingsStore } from "../../foundation/store/settings.ts";
import { UsageLedger } from "../../foundation/store/usage-ledger.ts";
import { Budget } from "../../foundation/usage/budget.ts";
import { BudgetTold } from "../../foundation/usage/budget-told.ts";
import { priceTable, type PriceTable } from "../../foundation/usage/prices.ts";
import { recordingUsage } from "../../foundation/usage/usage-recording.ts";
import { describeError } from "../../foundation/errors.ts";
import { localDay } from "../../foundation/util/time.ts";

/** The ledger, the budgets and the decorator of one Lilo. */
export interface UsageParts {
  ledger: UsageLedger;
  budget: Budget;
  /** Who was told today that the budget is spent (the push and the chat share it). */
  told: BudgetTold;
  prices: PriceTable;
  /** The model with every answered call recorded, and every call refused while the budget's cap holds (but the fallback model's). */
  wrap(model: ChatModel): ChatModel;
  /** Runs `listener` after each recorded call (the budget warning). */
  afterCall(listener: () => void): void;
  /** To be told after a call recorded outside `wrap` (speech): prunes and runs the listeners. */
  recorded(): void;
}

/** Builds the usage parts from the configuration (`costs` is live: budgets apply as soon as they change). */
export function usageLedger(config: LiloConfig, db: Db, clock: Clock, logger: Logger, settings: SettingsStore): UsageParts {
  const ledger = new UsageLedger(db);
  const budget = new Budget(ledger, clock, config.timezone, () => config.costs, settings);
  const prices = priceTable(config.costs.prices);
  const listeners: (() => void)[] = [];
  let prunedOn = "";
  const recorded = () => {
    const now = clock.now();
    const today = localDay(now, config.timezone);
    if (today !== prunedOn) {
      prunedOn = today;
      const removed = ledger.prune(new Date(now.getTime() - config.costs.keepDays * 86_400_000).toISOString());
      if (removed) logger.info("usage ledger pruned", { removed, keepDays: config.costs.keepDays });
    }
    for (const listener of listeners) listener();
  };
  const recording = { ledger, clock, timeZone: config.timezone, logger, prices: () => prices, allows: budget.allows.bind(budget), recorded };
  return {
    ledger,
    budget,
    told: new BudgetTold(settings, clock, config.timezone),
    prices,
    wrap: (model) => recordingUsage(model, recording),
    afterCall: (listener) => void listeners.push(listener),
    recorded,
  };
}

/** The configured fallback model while a budget is spent; a fallback that cannot be built is logged and the usual model answers. */
export function budgetFallbackModel(budget: Budget, models: ModelRegistry, logger: Logger): ChatModel | undefined {
  const spec = budget.fallbackModel();
  if (!spec) return undefined;
  try {
    return models.forSpec(spec);
  } catch (err) {
    logger.error("LILO_BUDGET_FALLBACK_MODEL is not usable; the chat keeps its model", { fallback: spec, error: describeError(err) });
    return undefined;
  }
}
