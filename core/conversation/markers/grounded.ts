/**
 * Outside text never writes memory. After a lookup, a store
 * marker the answer carries is executed only when its content is grounded
 * in the user's own messages: a word of it that stands in the outside text
 * (page, search result, feed item) but in none of the user's messages means
 * the model took it from outside — the same rule as the extraction's guard
 * against facts taken from Lilo's words (extraction/provenance.ts).
 */
import { wordsOnlyFromAssistant } from "../extraction/provenance.ts";
import type { Marker } from "./marker.ts";

/** Store markers that write no memory (a mood only). */
const NO_MEMORY = new Set(["EMOTION"]);

/** The store markers to execute and those dropped as taken from outside text. */
export function groundedMarkers(markers: Marker[], userTexts: string[], outside: string[], ignore: string[] = []): { kept: Marker[]; dropped: Marker[] } {
  if (!outside.length) return { kept: markers, dropped: [] };
  const outsideText = outside.join("\n");
  const kept: Marker[] = [];
  const dropped: Marker[] = [];
  for (const m of markers) {
    const fromOutside =
      !NO_MEMORY.has(m.name) && (wordsOnlyFromAssistant(m.payload, userTexts, outsideText, ignore).length > 0 || !hasUserWord(m.payload, userTexts));
    (fromOutside ? dropped : kept).push(m);
  }
  return { kept, dropped };
}

/** Does the payload share at least one word of five letters or more with the user's messages? (A memory written after a lookup must be about what the user said.) */
function hasUserWord(payload: string, userTexts: string[]): boolean {
  const words = (s: string) => (s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= 5).map((w) => w.slice(0, 5));
  const user = new Set(userTexts.flatMap(words));
  return words(payload).some((w) => user.has(w));
}
