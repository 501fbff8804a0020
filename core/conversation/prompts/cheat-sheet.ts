/** Section headings of the cheat sheet, per answer language. */
export const CHEAT_SHEET_LABELS = {
  de: {
    now: (date: string, tz: string) => `Jetzt ist ${date} (${tz}). Rechne Zeitangaben von hier aus; dieses Datum ist verlässlich.`,
    rules: "Gelernte Regeln – IMMER befolgen:",
    profile: (name: string) => `Profil von ${name}:`,
    shortTerm: "Wo ihr zuletzt aufgehört habt (Kurzzeitgedächtnis):",
    important: "Wichtige Erinnerungen (immer im Blick behalten):",
    passages: "Wörtliche Stellen aus früheren Gesprächen (» markiert den Treffer; Datum in Ortszeit):",
    notes: (name: string) => `Relevante Erinnerungen an ${name} aus früheren Gesprächen:`,
    aboutPerson: (name: string) => `Erinnerungen über ${name} (eine andere Person – nicht mit der Person verwechseln, mit der du sprichst):`,
    thoughts: "Deine eigenen Gedanken aus stillen Momenten (deine Deutung, keine Fakten):",
  },
  en: {
    now: (date: string, tz: string) => `It is now ${date} (${tz}). Reckon dates from here; this date is reliable.`,
    rules: "Learned rules – ALWAYS follow:",
    profile: (name: string) => `Profile of ${name}:`,
    shortTerm: "Where you left off last time (short-term memory):",
    important: "Important memories (always keep in mind):",
    passages: "Verbatim passages from earlier conversations (» marks the hit; local dates):",
    notes: (name: string) => `Relevant memories of ${name} from earlier conversations:`,
    aboutPerson: (name: string) => `Memories about ${name} (another person – do not mix them up with the person you are talking to):`,
    thoughts: "Your own thoughts from quiet moments (your interpretation, not facts):",
  },
} as const;
