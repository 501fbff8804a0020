/** What Lilo says about her voice, in the persona's language. */
export const SPEECH_TEXTS = {
  de: {
    /** Once a day, when the spent budget keeps her voice replies back. */
    budgetSpent: "Meine Stimme ruht, bis das Budget wieder frei ist – bis dahin schreibe ich dir.",
    on: "Ab jetzt antworte ich dir auch mit Sprachnachrichten.",
    off: "Ab jetzt antworte ich dir nur noch schriftlich.",
    auto: "Auf Sprachnachrichten antworte ich mit einer Sprachnachricht, sonst schriftlich.",
    unavailable: "Ich habe noch keine Stimme: dafür braucht es einen Sprachdienst (LILO_SPEECH_BASE_URL, siehe docs/voice.md).",
    usage: "So geht's: /voice on (immer mit Stimme), /voice off (nie) oder /voice auto (Stimme auf Sprachnachrichten).",
  },
  en: {
    budgetSpent: "My voice is resting until the budget renews – I'll write to you until then.",
    on: "From now on I'll answer you with voice notes too.",
    off: "From now on I'll answer you in writing only.",
    auto: "I'll answer a voice note with a voice note, and text with text.",
    unavailable: "I have no voice yet: that needs a speech service (LILO_SPEECH_BASE_URL, see docs/voice.md).",
    usage: "Use /voice on (always speak), /voice off (never) or /voice auto (speak when you send a voice note).",
  },
} as const;
