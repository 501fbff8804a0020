/** A reason said in parentheses: without its own full stop. */
const inParens = (reason: string) => `(${reason.replace(/\.$/, "")})`;

/** Texts the program itself says to the user in a chat turn. */
export const TURN_TEXTS = {
  de: {
    failed: (reason: string, retryable: boolean) =>
      `⚠️ Ich konnte gerade nicht antworten ${inParens(reason)}. Deine Nachricht ist gespeichert.` +
      (retryable ? " Versuch es gleich noch einmal (/retry)." : " Bitte prüfe die Modell-Einstellungen."),
    empty: "…",
    emptyAnswer: "⚠️ Das Modell hat leer geantwortet. Deine Nachricht ist gespeichert; versuch es noch einmal (/retry).",
    offline: (when: string) => `Ich war offline; deine Nachricht von ${when} habe ich gesehen. Schreib mir gern noch einmal, wenn sie noch aktuell ist.`,
  },
  en: {
    failed: (reason: string, retryable: boolean) =>
      `⚠️ I couldn't answer just now ${inParens(reason)}. Your message is saved.` +
      (retryable ? " Try again in a moment (/retry)." : " Please check the model settings."),
    empty: "…",
    emptyAnswer: "⚠️ The model gave an empty answer. Your message is saved; please try again (/retry).",
    offline: (when: string) => `I was offline; I saw your message from ${when}. Write again if it still matters.`,
  },
} as const;

/**
 * Stands in the model's history before a greeting Lilo sent on her own:
 * providers want a user turn first, and the model should know nobody asked.
 * Never stored; the chat log marks the greeting itself as proactive.
 */
export function proactivePlaceholder(language: "de" | "en", name: string): string {
  return language === "en" ? `(${name} speaks up on her own, without a prior message.)` : `(${name} meldet sich von selbst, ohne vorherige Nachricht.)`;
}
