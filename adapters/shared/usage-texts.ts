import { formatMoney, formatTokens, spendOfLimit, type UsageOverview, type UsageRow, type UsageTotals } from "../../core/internal.ts";

type Lang = "de" | "en";

/** What each call purpose is called in the chat. */
export const ROLE_NAMES: Record<Lang, Record<string, string>> = {
  de: {
    chat: "Antworten",
    "tool-round": "Werkzeugrunden",
    "lookup-follow-up": "Nachschlagen",
    extraction: "Merken",
    judge: "Korrekturen",
    summary: "Zusammenfassungen",
    diary: "Tagebuch",
    reflection: "Nachdenken",
    greeting: "Grüße",
    concern: "Sorgen",
    analysis: "Analyse",
    other: "Sonstiges",
  },
  en: {
    chat: "answers",
    "tool-round": "tool rounds",
    "lookup-follow-up": "lookups",
    extraction: "remembering",
    judge: "corrections",
    summary: "summaries",
    diary: "diary",
    reflection: "reflection",
    greeting: "greetings",
    concern: "concerns",
    analysis: "analysis",
    other: "other",
  },
};

/**
 * `/usage` (Telegram, terminal) and `!usage` (Matrix): today and this month,
 * each by role, and the budgets, in the persona's language.
 */
export function usageText(o: UsageOverview, language: Lang): string {
  const de = language === "de";
  const cost = (t: UsageTotals) => (t.cost === null ? (de ? "Preis unbekannt" : "no price known") : formatMoney(t.cost, o.currency, language));
  const tok = (n: number) => formatTokens(n, language);
  const totals = (t: UsageTotals) =>
    de
      ? `${t.calls} Aufrufe, ${tok(t.inputTokens)} Tokens rein (${tok(t.cachedInputTokens)} aus dem Cache), ${tok(t.outputTokens)} raus – ${cost(t)}`
      : `${t.calls} calls, ${tok(t.inputTokens)} tokens in (${tok(t.cachedInputTokens)} cached), ${tok(t.outputTokens)} out – ${cost(t)}`;
  const roles = (groups: UsageRow[]) =>
    groups.map(
      (r) => `  · ${ROLE_NAMES[language][r.key] ?? r.key}: ${r.cost === null ? `${tok(r.inputTokens + r.outputTokens)} ${de ? "Tokens" : "tokens"}` : cost(r)}`,
    );
  const lines = [
    `💸 ${de ? "Heute" : "Today"} (${o.today.day}): ${totals(o.today.total)}`,
    ...roles(o.today.byRole),
    `${de ? "Diesen Monat" : "This month"} (${o.month.month}): ${totals(o.month.total)}`,
    ...roles(o.month.byRole),
  ];
  for (const p of ["day", "month"] as const) {
    const b = o.budget[p];
    if (!b) continue;
    const name = de ? (p === "day" ? "Tagesbudget" : "Monatsbudget") : p === "day" ? "Daily budget" : "Monthly budget";
    const lifted = o.budget.lifted ? (de ? ", für heute aufgehoben (/budget)" : ", lifted for today (/budget)") : "";
    const spent = b.share >= 1 ? (de ? ` – aufgebraucht${lifted}` : ` – spent${lifted}`) : "";
    lines.push(`${name}: ${spendOfLimit(b.spent, b.limit, o.currency, language)} (${Math.floor(b.share * 100)} %)${spent}`);
  }
  const estimated = o.month.total.estimatedCalls;
  if (estimated)
    lines.push(de ? `(${estimated} Aufrufe geschätzt: der Server nannte keine Zahlen)` : `(${estimated} calls estimated: the server sent no usage)`);
  return lines.join("\n");
}
