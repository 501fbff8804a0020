import { fetchMarker } from "./marker.ts";
import { queryArgs } from "./tool-args.ts";
import { parseRecall, recallPassages } from "../../memory/recall/sheet-recall.ts";

/** [RECALL:] — the same search as the cheat sheet's automatic passages: time words filter, dates raise, words rank. */
export const RECALL_MARKER = fetchMarker({
  name: "RECALL",
  kind: "fetch",
  quotesChatLog: true,
  offer: "chat",
  teachOrder: 10,
  tool: {
    name: "recall",
    description:
      "Search the chat log of earlier conversations word by word; time words narrow the time range. Use it when the user asks about something you discussed and you lack the details.",
    args: queryArgs("literal words that were probably said back then, plus time words such as 'yesterday' or 'last week'"),
  },
  instruction: {
    de: "Fragt dein Gegenüber nach etwas, das ihr früher besprochen habt, und dir fehlen die Einzelheiten: [RECALL: prägnante Suchbegriffe] – z. B. [RECALL: Film Kino Bewertung]. Die Suche ist wörtlich: nimm Wörter, die damals gefallen sein dürften. Zeitwörter wie „gestern“ oder „abends“ grenzen den Zeitraum ein. Die Fundstücke bekommst du gleich danach.",
    en: 'When the user asks about something you discussed earlier and you lack the details: [RECALL: concise search terms] – e.g. [RECALL: film cinema rating]. The search is literal: use words that were probably said back then. Time words like "yesterday" or "in the evening" narrow the time range. You get the results right afterwards.',
  },
  async fetch(marker, ctx, deps) {
    const recallDeps = deps.chatRecall ?? { recall: deps.recall, clock: deps.clock, timeZone: deps.timeZone };
    const q = parseRecall(marker.payload, deps.clock, deps.timeZone);
    const vector = recallDeps.vectors ? await deps.memory.vectorFor(marker.payload) : undefined;
    const passages = await recallPassages(recallDeps, marker.payload, {
      userId: ctx.userId,
      limit: deps.limits.maxPassages,
      excludeConversationId: ctx.conversationId,
      vector,
    });
    return { marker, kind: "recall", status: passages.length ? "found" : "empty", passages, terms: q.terms, timeWords: q.timeWords };
  },
});
