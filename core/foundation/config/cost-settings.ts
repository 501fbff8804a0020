import { z } from "zod";
import { parsePrices } from "../usage/prices.ts";
import { parseBudget } from "../usage/budget-value.ts";
import { positiveInt, setting as s } from "./rules.ts";

/** What model calls cost and how that is capped: currency, prices, the ledger's keep time, day and month budgets; a section of the table in schema.ts. */
export const costSettings = z.object({
  currency: s(z.string().trim().min(1).default("USD"), {
    env: "LILO_CURRENCY",
    doc: "what prices and budgets are in (a label; the default prices are US dollars)",
    group: "costs",
  }),
  prices: s(
    z
      .string()
      .trim()
      .default("")
      .refine(valid(parsePrices), { error: (i) => problem(parsePrices, i.input) }),
    {
      env: "LILO_MODEL_PRICES",
      doc: "per million tokens, model=input/cached/output[/cache-write], comma-separated; over the built-in list; unknown models count tokens only",
      group: "costs",
      example: "claude-sonnet-4-5=3/0.3/15/3.75,deepseek:deepseek-chat=0.28/0.028/0.42",
    },
  ),
  keepDays: s(positiveInt(400), { env: "LILO_USAGE_KEEP_DAYS", doc: "the usage ledger forgets calls older than this", group: "costs" }),
  budgetDay: s(budget(), {
    env: "LILO_BUDGET_DAY",
    doc: "per local day: an amount (2.50) or tokens (300k tokens); 80 % warns once, 100 % stops every model call until /budget lifts it for today",
    group: "costs",
    live: "budget.day",
  }),
  budgetMonth: s(budget(), { env: "LILO_BUDGET_MONTH", doc: "per calendar month, the same way", group: "costs", live: "budget.month" }),
  fallbackModel: s(z.string().trim().default(""), {
    env: "LILO_BUDGET_FALLBACK_MODEL",
    doc: "provider:model every role switches to once a budget is spent; empty = Lilo pauses, and says how to go on",
    group: "costs",
    live: "budget.fallback_model",
    example: "deepseek:deepseek-chat",
  }),
  notify: s(z.string().trim().default(""), {
    env: "LILO_BUDGET_NOTIFY",
    doc: "user ids that get the 80 % warning as a push (comma-separated); empty = every user who opted in to pushes",
    group: "costs",
    example: "owner",
  }),
});

/** A budget: an amount or tokens, "" or "off" for none (usage/budget-value.ts). */
function budget() {
  return z
    .string()
    .trim()
    .default("")
    .refine(valid(parseBudget), { error: (i) => problem(parseBudget, i.input) });
}

/** Does `parse` accept the value? */
function valid(parse: (raw: string) => unknown): (raw: string) => boolean {
  return (raw) => problem(parse, raw) === undefined;
}

/** What `parse` says is wrong with the value, if anything. */
function problem(parse: (raw: string) => unknown, raw: unknown): string | undefined {
  try {
    parse(String(raw));
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}
