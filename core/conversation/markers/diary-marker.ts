import { fetchMarker } from "./marker.ts";
import { queryArgs } from "./tool-args.ts";

/** [DIARY:] — the top diary entries by meaning. */
export const DIARY_MARKER = fetchMarker({
  name: "DIARY",
  aliases: ["TAGEBUCH"],
  kind: "fetch",
  offer: "chat",
  teachOrder: 20,
  tool: { name: "diary_search", description: "Find entries of your own diary by meaning.", args: queryArgs("what the diary entry was about") },
  instruction: {
    de: "Brauchst du etwas aus deinem Tagebuch: [DIARY: worum es ging] – z. B. [DIARY: Gespräch über den Umzug]",
    en: "When you need something from your diary: [DIARY: what it was about] – e.g. [DIARY: talk about the move]",
  },
  async fetch(marker, ctx, deps) {
    const entries = await deps.memory.search(marker.payload, { userId: ctx.userId, store: "diary", k: deps.limits.diaryTopK });
    return { marker, kind: "diary", status: entries.length ? "found" : "empty", entries };
  },
});
