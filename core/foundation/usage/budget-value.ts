/** A spending limit: an amount of money in the configured currency, or a number of tokens (input + output). */
export type BudgetLimit = { unit: "cost"; amount: number } | { unit: "tokens"; amount: number };

const NONE = new Set(["", "off", "none", "0"]);

/**
 * Reads LILO_BUDGET_DAY / LILO_BUDGET_MONTH: `2.50` (currency), `200000 tokens`,
 * `200k tokens` or `1.5m tokens`; empty, `off` or `none` is no limit.
 * Throws a RangeError saying what is accepted.
 */
export function parseBudget(raw: string): BudgetLimit | undefined {
  const text = raw.trim().toLowerCase();
  if (NONE.has(text)) return undefined;
  const m = /^(\d+(?:\.\d+)?)\s*(k|m)?\s*(tokens?|tok)?$/.exec(text.replace(/,/g, ""));
  if (!m || (m[2] && !m[3])) throw new RangeError(`"${raw}" is not a budget: write an amount (2.50) or tokens (200000 tokens, 200k tokens); off for none`);
  const amount = Number(m[1]) * (m[2] === "k" ? 1_000 : m[2] === "m" ? 1_000_000 : 1);
  if (!(amount > 0)) return undefined;
  return m[3] ? { unit: "tokens", amount: Math.round(amount) } : { unit: "cost", amount };
}
