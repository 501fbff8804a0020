/**
 * What Lilo says about a spent budget: the warnings pushed at 80 % and 100 %,
 * the notice under the answer once the cap holds, and the reply to a message
 * the cap holds back. `spend` is spendOfLimit's "2,05 € von 2,50 €".
 */

/** Which budget is meant. */
type Period = "day" | "month";

/** The sentences of one language. */
interface BudgetTexts {
  /** The pushed heads-up at 80 %. */
  warning(period: Period, percent: number, spend: string): string;
  /** The push once a budget is spent: what pauses, and how the chat goes on. */
  spentPush(period: Period, spend: string, fallbackModel?: string): string;
  /** Under an answer once the cap holds: with the fallback model the chat goes on, without it Lilo pauses from now on. */
  spentNotice(period: Period, spend: string, fallbackModel?: string): string;
  /** The reply to a message the cap holds back (no fallback model): stored, and how to get the answer. */
  paused(period: Period, spend: string): string;
}

// Functions rather than lookups, so any value reads as one of the two periods.
const DE_NAME = (p: Period) => (p === "month" ? "Monatsbudget" : "Tagesbudget");
const DE_RENEW = (p: Period) => (p === "month" ? "nächsten Monat" : "morgen");
const EN_NAME = (p: Period) => (p === "month" ? "This month's budget" : "Today's budget");
const EN_RENEW = (p: Period) => (p === "month" ? "next month" : "tomorrow");
const VARIABLE = (p: Period) => (p === "month" ? "LILO_BUDGET_MONTH" : "LILO_BUDGET_DAY");

/** The budget sentences in German and English. */
export const BUDGET_TEXTS: { de: BudgetTexts; en: BudgetTexts } = {
  de: {
    warning: (p, percent, spend) => `💸 Hinweis: ${percent} % des ${DE_NAME(p)}s sind verbraucht (${spend}). \`lilo usage\` zeigt, wofür.`,
    spentPush: (p, spend, fallback) =>
      fallback
        ? `💸 Das ${DE_NAME(p)} ist aufgebraucht (${spend}). Tagebuch, Nachdenken und Grüße pausieren bis ${DE_RENEW(p)}; bis dahin antworte ich mit ${fallback}.`
        : `💸 Das ${DE_NAME(p)} ist aufgebraucht (${spend}). Ich pausiere bis ${DE_RENEW(p)}: keine Antworten, kein Tagebuch, kein Nachdenken, keine Grüße. ${deWay(p)}`,
    spentNotice: (p, spend, fallback) =>
      fallback
        ? `💸 Das ${DE_NAME(p)} ist aufgebraucht (${spend}). Ich antworte mit ${fallback} weiter; Tagebuch, Nachdenken und Grüße pausieren bis ${DE_RENEW(p)}.`
        : `💸 Damit ist das ${DE_NAME(p)} aufgebraucht (${spend}). Ab jetzt pausiere ich bis ${DE_RENEW(p)}. ${deWay(p)}`,
    paused: (p, spend) =>
      `💸 Das ${DE_NAME(p)} ist aufgebraucht (${spend}), darum antworte ich gerade nicht. Deine Nachricht ist gespeichert: /budget hebt die Grenze für heute auf, dann bringt /retry meine Antwort. Oder der Betreiber erhöht ${VARIABLE(p)}.`,
  },
  en: {
    warning: (p, percent, spend) => `💸 Heads-up: ${percent} % of ${EN_NAME(p).toLowerCase()} is spent (${spend}). \`lilo usage\` shows what for.`,
    spentPush: (p, spend, fallback) =>
      fallback
        ? `💸 ${EN_NAME(p)} is spent (${spend}). Diary, reflection and greetings pause until ${EN_RENEW(p)}; until then I answer with ${fallback}.`
        : `💸 ${EN_NAME(p)} is spent (${spend}). I pause until ${EN_RENEW(p)}: no answers, no diary, no reflection, no greetings. ${enWay(p)}`,
    spentNotice: (p, spend, fallback) =>
      fallback
        ? `💸 ${EN_NAME(p)} is spent (${spend}). I keep answering with ${fallback}; diary, reflection and greetings pause until ${EN_RENEW(p)}.`
        : `💸 That used up ${EN_NAME(p).toLowerCase()} (${spend}). From now on I pause until ${EN_RENEW(p)}. ${enWay(p)}`,
    paused: (p, spend) =>
      `💸 ${EN_NAME(p)} is spent (${spend}), so I am not answering for now. Your message is saved: /budget lifts the limit for today, then /retry brings my answer. Or the operator raises ${VARIABLE(p)}.`,
  },
};

/** How to go on without waiting, in German. */
function deWay(p: Period): string {
  return `/budget hebt die Grenze für heute auf, oder der Betreiber erhöht ${VARIABLE(p)}.`;
}

/** How to go on without waiting, in English. */
function enWay(p: Period): string {
  return `/budget lifts the limit for today, or the operator raises ${VARIABLE(p)}.`;
}
