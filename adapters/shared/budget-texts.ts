import type { BudgetLift } from "../../core/internal.ts";

/**
 * The reply to `/budget` (`!budget` on Matrix) in each language: what lifting
 * the spent budget's cap for today did.
 */
export const BUDGET_COMMAND_TEXTS: Record<"de" | "en", Record<BudgetLift, string>> = {
  de: {
    lifted:
      "✅ Die Grenze des Budgets ist für heute aufgehoben: Bis Mitternacht antworte ich wie gewohnt, morgen gilt sie wieder. /retry bringt die Antwort auf deine letzte Nachricht.",
    "already-lifted": "Die Grenze ist für heute schon aufgehoben; morgen gilt sie wieder. /usage zeigt die Ausgaben.",
    "not-spent": "Nichts aufzuheben: Das Budget ist nicht aufgebraucht, ich antworte wie gewohnt. /usage zeigt, wo es steht.",
    "no-budget": "Es ist kein Budget gesetzt (LILO_BUDGET_DAY, LILO_BUDGET_MONTH): nichts aufzuheben.",
  },
  en: {
    lifted:
      "✅ The budget's limit is lifted for today: I answer as usual until midnight; tomorrow it applies again. /retry brings the answer to your last message.",
    "already-lifted": "The limit is already lifted for today; tomorrow it applies again. /usage shows the spend.",
    "not-spent": "Nothing to lift: the budget is not spent, I answer as usual. /usage shows where it stands.",
    "no-budget": "No budget is set (LILO_BUDGET_DAY, LILO_BUDGET_MONTH): nothing to lift.",
  },
};

/** The reply to `/budget` after `lilo.usage.liftBudget()`. */
export function budgetCommandText(outcome: BudgetLift, language: "de" | "en"): string {
  return BUDGET_COMMAND_TEXTS[language][outcome];
}
