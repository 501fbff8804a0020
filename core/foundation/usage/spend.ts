/**
 * Amounts of spending as Lilo writes them: money in the configured currency,
 * token counts, a budget's spend against its limit (the sentences around
 * them: budget-texts.ts).
 */
import type { BudgetLimit } from "./budget-value.ts";

type Lang = "de" | "en";

/** An amount in the configured currency ("2,50 €", "$2.50"), or a label after the number when the currency is no ISO code. */
export function formatMoney(amount: number, currency: string, language: Lang): string {
  const locale = language === "de" ? "de-DE" : "en-US";
  const digits = amount !== 0 && Math.abs(amount) < 0.1 ? 4 : 2;
  if (ISO_CURRENCIES.has(currency.toUpperCase()))
    return new Intl.NumberFormat(locale, { style: "currency", currency, minimumFractionDigits: 2, maximumFractionDigits: digits }).format(amount);
  // Not an ISO 4217 code (e.g. "credits"): the number and the label as configured.
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(amount)} ${currency}`;
}

const ISO_CURRENCIES = new Set(Intl.supportedValuesOf("currency"));

/** A token count, short: 950, 12.3k, 1.2M (German: 12,3 Tsd., 1,2 Mio.). */
export function formatTokens(n: number, language: Lang): string {
  return new Intl.NumberFormat(language === "de" ? "de-DE" : "en-US", { notation: "compact", maximumFractionDigits: 1 }).format(n);
}

/** A budget's spend and limit in its unit: "2,05 € von 2,50 €", "240k of 300k tokens". */
export function spendOfLimit(spent: number, limit: BudgetLimit, currency: string, language: Lang): string {
  const of = language === "de" ? "von" : "of";
  if (limit.unit === "tokens")
    return `${formatTokens(spent, language)} ${of} ${formatTokens(limit.amount, language)} ${language === "de" ? "Tokens" : "tokens"}`;
  return `${formatMoney(spent, currency, language)} ${of} ${formatMoney(limit.amount, currency, language)}`;
}
