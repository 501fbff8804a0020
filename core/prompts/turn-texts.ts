/** Texts the program itself says to the user in a chat turn. */
export const TURN_TEXTS = {
  de: {
    failed: (reason: string, retryable: boolean) =>
      `⚠️ Ich konnte gerade nicht antworten (${reason}). Deine Nachricht ist gespeichert.` +
      (retryable ? " Versuch es gleich noch einmal (/retry)." : " Bitte prüfe die Modell-Einstellungen."),
    empty: "…",
    emptyAnswer: "⚠️ Das Modell hat leer geantwortet. Deine Nachricht ist gespeichert; versuch es noch einmal (/retry).",
    offline: (when: string) => `Ich war offline; deine Nachricht von ${when} habe ich gesehen. Schreib mir gern noch einmal, wenn sie noch aktuell ist.`,
  },
  en: {
    failed: (reason: string, retryable: boolean) =>
      `⚠️ I couldn't answer just now (${reason}). Your message is saved.` +
      (retryable ? " Try again in a moment (/retry)." : " Please check the model settings."),
    empty: "…",
    emptyAnswer: "⚠️ The model gave an empty answer. Your message is saved; please try again (/retry).",
    offline: (when: string) => `I was offline; I saw your message from ${when}. Write again if it still matters.`,
  },
} as const;
