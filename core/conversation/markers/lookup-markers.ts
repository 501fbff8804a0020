/**
 * The lookup markers (SPEC §5): [SEARCH:], [FETCH:] and [NEWS:] go to the
 * lookups (core/lookups/web), the same path the native tools take. A lookup this
 * setup cannot answer is reported as unavailable, so the follow-up says so
 * instead of the model inventing a result. ([RECALL:] and [DIARY:] live
 * with their features, core/memory/recall and core/background/diary.)
 */
import type { FetchMarkerDefinition, Marker } from "./marker.ts";
import type { FetchDeps, FetchOutcome } from "./fetch.ts";
import type { Lookups } from "../../lookups/lookups.ts";

/** A lookup marker is answered only when this setup's lookups offer it. */
function viaLookups(run: (lookups: Lookups, userId: string, marker: Marker) => Promise<FetchOutcome> | FetchOutcome) {
  return async (marker: Marker, ctx: { userId: string }, deps: FetchDeps): Promise<FetchOutcome> =>
    deps.lookups?.markerNames().includes(marker.name) ? run(deps.lookups, ctx.userId, marker) : { marker, status: "unavailable" };
}

/** [SEARCH:] — a web search (logged). */
export const SEARCH_MARKER: FetchMarkerDefinition = {
  name: "SEARCH",
  aliases: ["WEBSEARCH", "WEBSUCHE"],
  kind: "fetch",
  offer: "lookup",
  teachOrder: 40,
  instruction: {
    de: "Brauchst du aktuelle Informationen aus dem Internet: [SEARCH: Suchanfrage] – z. B. [SEARCH: Wetter Berlin Wochenende]",
    en: "When you need current information from the web: [SEARCH: query] – e.g. [SEARCH: weather Berlin weekend]",
  },
  fetch: viaLookups(async (lookups, userId, marker) => {
    const results = await lookups.search(userId, marker.payload);
    return { marker, kind: "search", status: results.length ? "found" : "empty", results };
  }),
};

/** [FETCH:] — reads one web page. */
export const FETCH_MARKER: FetchMarkerDefinition = {
  name: "FETCH",
  aliases: ["FETCHURL", "READURL"],
  kind: "fetch",
  offer: "lookup",
  teachOrder: 50,
  instruction: {
    de: "Willst du eine bestimmte Webseite lesen (z. B. einen Link deines Gegenübers): [FETCH: https://…] – z. B. [FETCH: https://example.org/artikel]",
    en: "When you want to read one web page (e.g. a link the user sent): [FETCH: https://…] – e.g. [FETCH: https://example.org/article]",
  },
  fetch: viaLookups(async (lookups, _userId, marker) => ({ marker, kind: "page", status: "found", page: await lookups.read(marker.payload) })),
};

/** [NEWS:] (canonically KINEWS, the seed's name) — the news feeds Lilo follows. */
export const NEWS_MARKER: FetchMarkerDefinition = {
  name: "KINEWS",
  aliases: ["NEWS", "NACHRICHTEN"],
  kind: "fetch",
  offer: "lookup",
  teachOrder: 60,
  instruction: {
    de: "Geht es um aktuelle Nachrichten aus deinen Quellen: [NEWS: Stichwörter] – z. B. [NEWS: neue Sprachmodelle]",
    en: "For current news from your sources: [NEWS: keywords] – e.g. [NEWS: new language models]",
  },
  fetch: viaLookups((lookups, _userId, marker) => {
    const items = lookups.news(marker.payload);
    return { marker, kind: "news", status: items.length ? "found" : "empty", items };
  }),
};

/** The lookup markers, gathered by the registry. */
export const LOOKUP_MARKERS: readonly FetchMarkerDefinition[] = [SEARCH_MARKER, FETCH_MARKER, NEWS_MARKER];
