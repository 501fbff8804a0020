/**
 * The lookup markers (docs/spec.md §5): [SEARCH:], [FETCH:] and [NEWS:] go to the
 * lookups (core/lookups/web), the same path the native tools take. A lookup this
 * setup cannot answer is reported as unavailable, so the follow-up says so
 * instead of the model inventing a result. ([RECALL:] and [DIARY:] live
 * with their features, core/memory/recall and core/background/diary.)
 */
import { z } from "zod";
import { fetchMarker, type FetchOutcome, type FetchServices, type Marker } from "./marker.ts";
import { queryArgs } from "./tool-args.ts";
import type { Lookups } from "../../lookups/lookups.ts";

/** A lookup marker's handler; fetch.ts answers it only when this setup's lookups offer the marker's `lookup`. */
function viaLookups(run: (lookups: Lookups, userId: string, marker: Marker) => Promise<FetchOutcome> | FetchOutcome) {
  return async (marker: Marker, ctx: { userId: string }, deps: FetchServices): Promise<FetchOutcome> =>
    deps.lookups ? run(deps.lookups, ctx.userId, marker) : { marker, status: "unavailable" };
}

/** [SEARCH:] — a web search (logged). */
const SEARCH_MARKER = fetchMarker({
  name: "SEARCH",
  aliases: ["WEBSEARCH", "WEBSUCHE"],
  kind: "fetch",
  offer: "lookup",
  teachOrder: 40,
  lookup: "search",
  tool: {
    name: "web_search",
    description: "Search the web for current information. Use the results in your own words; do not paste lists of links.",
    args: queryArgs("the web search query"),
  },
  instruction: {
    de: "Brauchst du aktuelle Informationen aus dem Internet: [SEARCH: Suchanfrage] – z. B. [SEARCH: Wetter Berlin Wochenende]",
    en: "When you need current information from the web: [SEARCH: query] – e.g. [SEARCH: weather Berlin weekend]",
  },
  fetch: viaLookups(async (lookups, userId, marker) => {
    const results = await lookups.search(userId, marker.payload);
    return { marker, kind: "search", status: results.length ? "found" : "empty", results };
  }),
});

/** [FETCH:] — reads one web page. */
const FETCH_MARKER = fetchMarker({
  name: "FETCH",
  aliases: ["FETCHURL", "READURL"],
  kind: "fetch",
  offer: "lookup",
  teachOrder: 50,
  lookup: "fetch",
  tool: {
    name: "fetch_url",
    description: "Read one web page (e.g. a link the user sent) and get its title and readable text.",
    args: z.object({ url: z.string().trim().min(1).describe("the http(s) URL of the page") }).strict(),
  },
  instruction: {
    de: "Willst du eine bestimmte Webseite lesen (z. B. einen Link deines Gegenübers): [FETCH: https://…] – z. B. [FETCH: https://example.org/artikel]",
    en: "When you want to read one web page (e.g. a link the user sent): [FETCH: https://…] – e.g. [FETCH: https://example.org/article]",
  },
  fetch: viaLookups(async (lookups, _userId, marker) => ({ marker, kind: "page", status: "found", page: await lookups.read(marker.payload) })),
});

/** [NEWS:] (the seed's KINEWS is read as it) — the news feeds Lilo follows; its follow-up is labelled as taught. */
const NEWS_MARKER = fetchMarker({
  name: "NEWS",
  aliases: ["KINEWS", "NACHRICHTEN"],
  kind: "fetch",
  offer: "lookup",
  teachOrder: 60,
  lookup: "news",
  tool: { name: "news_search", description: "Search the news feeds you follow, newest first.", args: queryArgs("keywords of the news topic") },
  instruction: {
    de: "Geht es um aktuelle Nachrichten aus deinen Quellen: [NEWS: Stichwörter] – z. B. [NEWS: neue Sprachmodelle]",
    en: "For current news from your sources: [NEWS: keywords] – e.g. [NEWS: new language models]",
  },
  fetch: viaLookups((lookups, _userId, marker) => {
    const items = lookups.news(marker.payload);
    return { marker, kind: "news", status: items.length ? "found" : "empty", items };
  }),
});

/** The lookup markers, gathered by the registry. */
export const LOOKUP_MARKERS = [SEARCH_MARKER, FETCH_MARKER, NEWS_MARKER] as const;
