import { storeMarker } from "../markers/marker.ts";

/** [FOLLOWUP:] — opens a follow-up topic (store 8), due after `followupDueDays` (docs/spec.md §9). */
export const FOLLOWUP_MARKER = storeMarker({
  name: "FOLLOWUP",
  kind: "store",
  offer: "chat",
  teachOrder: 80,
  instruction: {
    de: "Willst du in ein bis drei Wochen nachfragen: [FOLLOWUP: Thema] – z. B. [FOLLOWUP: Wie ist das Vorstellungsgespräch gelaufen?]",
    en: "When you want to check back in one to three weeks: [FOLLOWUP: topic] – e.g. [FOLLOWUP: How did the job interview go?]",
  },
  store(payload, turn, s) {
    if (s.boundaries?.for(turn.userId).about(payload)) return undefined;
    const due = new Date(turn.now.getTime() + s.followupDueDays * 86_400_000).toISOString();
    const origin = { kind: "inference" as const, ref: String(turn.userMessageId) };
    return { storedId: s.topics.add(turn.userId, payload, "followup", due, turn.now.toISOString(), "open", origin) };
  },
});
