/**
 * What Lilo says about spending: the budget warning pushed at 80 % and at
 * 100 %, and the notice under a chat answer once a budget is spent.
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

/** The pushed warning: `level` 80 (a heads-up) or 100 (spent: background work pauses). */
export function budgetWarning(
  language: Lang,
  w: { period: "day" | "month"; level: 80 | 100; spendText: string; percent: number; fallbackModel?: string | undefined },
): string {
  const de = language === "de";
  const period = de ? (w.period === "day" ? "Tagesbudgets" : "Monatsbudgets") : w.period === "day" ? "today's budget" : "this month's budget";
  if (w.level === 80) {
    return de
      ? `💸 Hinweis: ${w.percent} % des ${period} sind verbraucht (${w.spendText}). \`lilo usage\` zeigt, wofür.`
      : `💸 Heads-up: ${w.percent} % of ${period} is spent (${w.spendText}). \`lilo usage\` shows what for.`;
  }
  const renew = de ? (w.period === "day" ? "morgen" : "nächsten Monat") : w.period === "day" ? "tomorrow" : "next month";
  const chat = w.fallbackModel
    ? de
      ? `Ich antworte bis dahin mit ${w.fallbackModel}.`
      : `Until then I answer with ${w.fallbackModel}.`
    : de
      ? "Unterhalten können wir uns weiter."
      : "We can keep talking.";
  return de
    ? `💸 Das ${period.replace(/s$/, "")} ist aufgebraucht (${w.spendText}). Tagebuch, Nachdenken und Grüße pausieren bis ${renew}. ${chat}`
    : `💸 ${period[0]!.toUpperCase()}${period.slice(1)} is spent (${w.spendText}). Diary, reflection and greetings pause until ${renew}. ${chat}`;
}

/** Under the first chat answer after a budget is spent: the chat goes on (with the cheaper model, when one is configured). */
export function budgetSpentNotice(language: Lang, spendText: string, fallbackModel?: string): string {
  if (language === "de") {
    const chat = fallbackModel ? `Ich antworte mit ${fallbackModel} weiter` : "Ich antworte weiter";
    return `💸 Das Budget ist aufgebraucht (${spendText}). ${chat}; Tagebuch, Nachdenken und Grüße pausieren, bis es sich erneuert.`;
  }
  const chat = fallbackModel ? `I keep answering with ${fallbackModel}` : "I keep answering";
  return `💸 The budget is spent (${spendText}). ${chat}; diary, reflection and greetings pause until it renews.`;
}
