import type { FetchMarkerDefinition } from "./marker.ts";

/** [DIARY:] — the top diary entries by meaning. */
export const DIARY_MARKER: FetchMarkerDefinition = {
  name: "DIARY",
  aliases: ["TAGEBUCH"],
  kind: "fetch",
  offer: "chat",
  teachOrder: 20,
  instruction: {
    de: "Brauchst du etwas aus deinem Tagebuch: [DIARY: worum es ging] – z. B. [DIARY: Gespräch über den Umzug]",
    en: "When you need something from your diary: [DIARY: what it was about] – e.g. [DIARY: talk about the move]",
  },
  async fetch(marker, ctx, deps) {
    const entries = await deps.memory.search(marker.payload, { userId: ctx.userId, store: "diary", k: deps.limits.diaryTopK });
    return { marker, kind: "diary", status: entries.length ? "found" : "empty", entries };
  },
};
