/**
 * What Lilo says when a message was too long for the model: the note the
 * model sees where the text was cut, and the line the user reads under the
 * answer. The stored message is always whole.
 */
export const BUDGET_TEXTS = {
  de: {
    cut: (hidden: number) => `[… gekürzt: ${hidden} weitere Zeichen nicht gezeigt]`,
    inputShortened: (total: number, shown: number) =>
      `ℹ️ Deine Nachricht war sehr lang (${total} Zeichen). Gespeichert ist sie ganz, gelesen habe ich nur die ersten ${shown}.`,
  },
  en: {
    cut: (hidden: number) => `[… shortened: ${hidden} more characters not shown]`,
    inputShortened: (total: number, shown: number) =>
      `ℹ️ Your message was very long (${total} characters). It is stored whole, but I only read the first ${shown}.`,
  },
} as const;
