import type { MarkerRegistry } from "../markers/marker-registry.ts";

// Each marker's own line (when to use it, one example) lives in its definition (core/conversation/markers/marker.ts).
export const MARKERS_INTRO = {
  de: "Marker: Das Programm führt sie aus und entfernt sie, dein Gegenüber sieht sie nie. Schreib sie genau so, mit eckigen Klammern und Doppelpunkt. Mehrere in einer Antwort sind erlaubt.",
  en: "Markers: the program executes and removes them; the user never sees them. Write them exactly like this, square brackets and colon. Several in one answer are fine.",
} as const;

// Markers inside backticks are deliberately ignored by parseMarkers, so this is how Lilo can explain them safely.
export const MARKERS_OUTRO = {
  de: "Erklärst du Marker nur, setz das Beispiel in `Backticks`, sonst wird es ausgeführt.",
  en: "When you only explain a marker, put the example in `backticks`, otherwise it is executed.",
} as const;

/**
 * The marker block of the system prompt: one line with an example for each
 * available marker, in the registry's teaching order. Only the markers passed
 * in are described, so the prompt does not grow with tools this setup lacks.
 * Returns "" when none are available.
 */
export function markerInstructions(language: "de" | "en", available: readonly string[], registry: MarkerRegistry): string {
  const wanted = new Set(available);
  const lines = registry.all.filter((d) => wanted.has(d.name)).map((d) => `- ${d.instruction[language]}`);
  if (lines.length === 0) return "";
  return [MARKERS_INTRO[language], ...lines, MARKERS_OUTRO[language]].join("\n");
}
