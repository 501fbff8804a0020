/**
 * What Lilo sends on her own: the push outbox (quiet hours read live, so a
 * change with `lilo settings set` applies to the next push) and the budget
 * warnings, checked in the background after every recorded model call.
 */
import { budgetWarnings } from "../../background/budget/budget-warnings.ts";
import { Push } from "../../background/push/push.ts";
import type { BackgroundTasks } from "../../foundation/util/background.ts";
import type { Base } from "./foundation.ts";
import type { Stores } from "./stores.ts";
import type { UsageParts } from "./usage.ts";

/** The outbox, and the budget warning check (`lilo usage` runs it too). */
export interface Pushing {
  push: Push;
  warnings: { check(): Promise<void> };
}

/** Builds the outbox and hooks the budget warnings onto the usage ledger. */
export function wirePush(base: Base, stores: Pick<Stores, "settings" | "history">, usage: UsageParts, background: BackgroundTasks): Pushing {
  const { config, db, clock, logger } = base;
  // A getter, so quiet hours changed with `lilo settings set` apply to the next push.
  const push = new Push(db, clock, logger, {
    get hours() {
      return config.push.quietHours;
    },
    timezone: config.timezone,
    maxAgeHours: () => config.push.maxAgeHours,
  });
  const warnings = budgetWarnings(
    { budget: usage.budget, told: usage.told, push, settings: stores.settings, clock, logger, users: () => stores.history.users() },
    { costs: config.costs, language: config.persona.language },
  );
  usage.afterCall(() => background.run("budget warning", () => warnings.check()));
  return { push, warnings };
}
