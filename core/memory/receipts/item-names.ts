/**
 * What Lilo calls each kind of memory item when she lists them to the user:
 * /why's receipt lines, the forget question and Lilo's pages share these
 * names, so an item is called the same everywhere.
 */
export const ITEM_NAMES = {
  de: {
    notes: "Notiz",
    important: "Wichtig",
    thoughts: "Gedanke",
    diary: "Tagebuch",
    profile: "Profil",
    rules: "Regel",
    boundaries: "Grenze",
    topics: "Thema",
    short_term: "Zusammenfassung",
    suggestions: "Vorschlag",
    messages: "Nachricht",
  },
  en: {
    notes: "note",
    important: "important",
    thoughts: "thought",
    diary: "diary",
    profile: "profile",
    rules: "rule",
    boundaries: "boundary",
    topics: "topic",
    short_term: "summary",
    suggestions: "suggestion",
    messages: "message",
  },
} as const;

/** An item kind's name in the persona's language (an unknown kind is shown as it is). */
export function itemName(language: "de" | "en", kind: string): string {
  return (ITEM_NAMES[language] as Record<string, string>)[kind] ?? kind;
}
