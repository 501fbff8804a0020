/**
 * The fetch markers (SPEC §5): [RECALL:] searches the chat log word by word
 * with time words as filters; [DIARY:] finds diary entries by meaning;
 * [SEARCH:], [FETCH:] and [NEWS:] go to the lookups (core/web), the same
 * path the native tools take. A lookup this setup cannot answer is reported
 * as unavailable, so the follow-up says so instead of the model inventing a result.
 */
import type { FetchMarkerDefinition, Marker } from "./marker.ts";
import type { FetchDeps, FetchOutcome } from "./fetch.ts";
import type { Lookups } from "../web/lookups.ts";
import { parseRecall, recallPassages } from "../recall/sheet-recall.ts";

/** [RECALL:] — the same search as the cheat sheet's automatic passages: time words filter, dates raise, words rank. */
export const RECALL_MARKER: FetchMarkerDefinition = {
  name: "RECALL",
  kind: "fetch",
  quotesChatLog: true,
  offer: "chat",
  instruction: {
    de: "Fragt dein Gegenüber nach etwas, das ihr früher besprochen habt, und dir fehlen die Einzelheiten: [RECALL: prägnante Suchbegriffe] – z. B. [RECALL: Film Kino Bewertung]. Die Suche ist wörtlich: nimm Wörter, die damals gefallen sein dürften. Zeitwörter wie „gestern“ oder „abends“ grenzen den Zeitraum ein. Die Fundstücke bekommst du gleich danach.",
    en: "When the user asks about something you discussed earlier and you lack the details: [RECALL: concise search terms] – e.g. [RECALL: film cinema rating]. The search is literal: use words that were probably said back then. Time words like \"yesterday\" or \"in the evening\" narrow the time range. You get the results right afterwards.",
  },
  async fetch(marker, ctx, deps) {
    const recallDeps = deps.chatRecall ?? { recall: deps.recall, clock: deps.clock, timeZone: deps.config.timezone };
    const q = parseRecall(marker.payload, deps.clock, deps.config.timezone);
    const vector = recallDeps.vectors ? await deps.memory.embed(marker.payload) : undefined;
    const passages = await recallPassages(recallDeps, marker.payload, { userId: ctx.userId, limit: deps.config.recall.maxPassages, excludeConversationId: ctx.conversationId, vector });
    return { marker, kind: "recall", status: passages.length ? "found" : "empty", passages, terms: q.terms, timeWords: q.timeWords };
  },
};

/** [DIARY:] — the top diary entries by meaning. */
export const DIARY_MARKER: FetchMarkerDefinition = {
  name: "DIARY",
  aliases: ["TAGEBUCH"],
  kind: "fetch",
  offer: "chat",
  instruction: {
    de: "Brauchst du etwas aus deinem Tagebuch: [DIARY: worum es ging] – z. B. [DIARY: Gespräch über den Umzug]",
    en: "When you need something from your diary: [DIARY: what it was about] – e.g. [DIARY: talk about the move]",
  },
  async fetch(marker, ctx, deps) {
    const entries = await deps.memory.search(marker.payload, { userId: ctx.userId, store: "diary", k: deps.config.recall.diaryTopK });
    return { marker, kind: "diary", status: entries.length ? "found" : "empty", entries };
  },
};

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
  instruction: {
    de: "Geht es um aktuelle Nachrichten aus deinen Quellen: [NEWS: Stichwörter] – z. B. [NEWS: neue Sprachmodelle]",
    en: "For current news from your sources: [NEWS: keywords] – e.g. [NEWS: new language models]",
  },
  fetch: viaLookups((lookups, _userId, marker) => {
    const items = lookups.news(marker.payload);
    return { marker, kind: "news", status: items.length ? "found" : "empty", items };
  }),
};
