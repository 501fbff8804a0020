/** Texts the program itself says to the user in a chat turn. */
export const TURN_TEXTS = {
  de: {
    failed: (reason: string, retryable: boolean) =>
      `⚠️ Ich konnte gerade nicht antworten (${reason}). Deine Nachricht ist gespeichert.` +
      (retryable ? " Versuch es gleich noch einmal (/retry)." : " Bitte prüfe die Modell-Einstellungen."),
    empty: "…",
  },
  en: {
    failed: (reason: string, retryable: boolean) =>
      `⚠️ I couldn't answer just now (${reason}). Your message is saved.` +
      (retryable ? " Try again in a moment (/retry)." : " Please check the model settings."),
    empty: "…",
  },
} as const;
