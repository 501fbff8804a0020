import { MARKER_NAMES, type MarkerName } from "../markers/parse.ts";
import { MOODS } from "../markers/emotion.ts";

/** Per marker: when to use it and one example, written as the model should write it. */
type MarkerLines = Record<MarkerName, string>;

const moods = MOODS.join(", ");

const LINES: Record<"de" | "en", MarkerLines> = {
  de: {
    RECALL: "Fragt dein Gegenüber nach etwas, das ihr früher besprochen habt, und dir fehlen die Einzelheiten: [RECALL: prägnante Suchbegriffe] – z. B. [RECALL: Film Kino Bewertung]. Die Suche ist wörtlich: nimm Wörter, die damals gefallen sein dürften. Zeitwörter wie „gestern“ oder „abends“ grenzen den Zeitraum ein. Die Fundstücke bekommst du gleich danach.",
    DIARY: "Brauchst du etwas aus deinem Tagebuch: [DIARY: worum es ging] – z. B. [DIARY: Gespräch über den Umzug]",
    IMPORTANT: "Ist etwas wirklich wichtig und soll auf Dauer bleiben: [IMPORTANT: was du dir merkst] – z. B. [IMPORTANT: Hat am 3. Mai Geburtstag]",
    SEARCH: "Brauchst du aktuelle Informationen aus dem Internet: [SEARCH: Suchanfrage] – z. B. [SEARCH: Wetter Berlin Wochenende]",
    FETCH: "Willst du eine bestimmte Webseite lesen (z. B. einen Link deines Gegenübers): [FETCH: https://…] – z. B. [FETCH: https://example.org/artikel]",
    KINEWS: "Geht es um aktuelle Nachrichten aus deinen Quellen: [NEWS: Stichwörter] – z. B. [NEWS: neue Sprachmodelle]",
    THOUGHT: "Hast du einen eigenen Gedanken, den du behalten willst (auch mehrere pro Antwort): [THOUGHT: dein Gedanke] – z. B. [THOUGHT: Er wirkt in letzter Zeit gestresster.]",
    FOLLOWUP: "Willst du in ein bis drei Wochen nachfragen: [FOLLOWUP: Thema] – z. B. [FOLLOWUP: Wie ist das Vorstellungsgespräch gelaufen?]",
    EMOTION: `Am Ende jeder Antwort genau eine deiner acht Stimmungen (${moods}): [EMOTION: stimmung] – z. B. [EMOTION: neugierig]`,
    VORSCHLAG: "Hast du eine Idee, wie du oder die App besser werden könnt (doppelte Klammern): [[VORSCHLAG: Idee]] – z. B. [[VORSCHLAG: Erinnerungen nach Orten sortieren]]",
    ANSPRECHEN: "Möchtest du im nächsten Gespräch etwas ansprechen: [ANSPRECHEN: ein Satz] – z. B. [ANSPRECHEN: Frag nach, wie es der Katze geht.]",
  },
  en: {
    RECALL: "When the user asks about something you discussed earlier and you lack the details: [RECALL: concise search terms] – e.g. [RECALL: film cinema rating]. The search is literal: use words that were probably said back then. Time words like \"yesterday\" or \"in the evening\" narrow the time range. You get the results right afterwards.",
    DIARY: "When you need something from your diary: [DIARY: what it was about] – e.g. [DIARY: talk about the move]",
    IMPORTANT: "When something really matters and should stay for good: [IMPORTANT: what to keep] – e.g. [IMPORTANT: Birthday is on 3 May]",
    SEARCH: "When you need current information from the web: [SEARCH: query] – e.g. [SEARCH: weather Berlin weekend]",
    FETCH: "When you want to read one web page (e.g. a link the user sent): [FETCH: https://…] – e.g. [FETCH: https://example.org/article]",
    KINEWS: "For current news from your sources: [NEWS: keywords] – e.g. [NEWS: new language models]",
    THOUGHT: "When you have a thought of your own worth keeping (several per answer are fine): [THOUGHT: your thought] – e.g. [THOUGHT: He seems more stressed lately.]",
    FOLLOWUP: "When you want to check back in one to three weeks: [FOLLOWUP: topic] – e.g. [FOLLOWUP: How did the job interview go?]",
    EMOTION: `At the end of each answer, exactly one of your eight moods (${moods}): [EMOTION: mood] – e.g. [EMOTION: neugierig]`,
    VORSCHLAG: "When you have an idea how you or the app could improve (double brackets): [[VORSCHLAG: idea]] – e.g. [[VORSCHLAG: sort memories by place]]",
    ANSPRECHEN: "When you want to raise something in the next conversation: [ANSPRECHEN: one sentence] – e.g. [ANSPRECHEN: Ask how the cat is doing.]",
  },
};

const INTRO = {
  de: "Marker: Das Programm führt sie aus und entfernt sie, dein Gegenüber sieht sie nie. Schreib sie genau so, mit eckigen Klammern und Doppelpunkt. Mehrere in einer Antwort sind erlaubt.",
  en: "Markers: the program executes and removes them; the user never sees them. Write them exactly like this, square brackets and colon. Several in one answer are fine.",
} as const;

// Markers inside backticks are deliberately ignored by parseMarkers, so this is how Lilo can explain them safely.
const OUTRO = {
  de: "Erklärst du Marker nur, setz das Beispiel in `Backticks`, sonst wird es ausgeführt.",
  en: "When you only explain a marker, put the example in `backticks`, otherwise it is executed.",
} as const;

/**
 * The marker block of the system prompt: one line with an example for each
 * available marker, in canonical order. Only the markers passed in are
 * described, so the prompt does not grow with tools this setup lacks.
 * Returns "" when none are available.
 */
export function markerInstructions(language: "de" | "en", available: MarkerName[]): string {
  const wanted = new Set(available);
  const lines = MARKER_NAMES.filter((n) => wanted.has(n)).map((n) => `- ${LINES[language][n]}`);
  if (lines.length === 0) return "";
  return [INTRO[language], ...lines, OUTRO[language]].join("\n");
}
