import type { Memory } from "../memory/memory.ts";
import type { TopicsStore } from "../store/topics.ts";
import type { SuggestionsStore } from "../store/suggestions.ts";
import type { Clock } from "../ports/clock.ts";
import type { Logger } from "../ports/logger.ts";
import type { LiloConfig } from "../config.ts";
import type { Marker, MarkerName } from "./parse.ts";
import { normalizeMood, type Mood } from "./emotion.ts";

/**
 * Markers Lilo is told about in chat. The fetch markers RECALL and DIARY are
 * answered by one follow-up call (core/turn/follow-up.ts); SEARCH and KINEWS
 * have no provider here, so they are not advertised.
 */
export const CHAT_MARKERS = ["RECALL", "DIARY", "EMOTION", "THOUGHT", "IMPORTANT", "FOLLOWUP", "VORSCHLAG"] as const satisfies readonly MarkerName[];

export interface MarkerEffects {
  mood?: Mood;
  thoughts: number[];
  important: number[];
  topics: number[];
  suggestions: number[];
  /** Markers that were stripped but not executed here. */
  ignored: string[];
}

/**
 * Executes the store markers of one answer (the text is already stripped).
 * Several THOUGHTs are all saved; the last EMOTION wins.
 */
export async function executeStoreMarkers(
  deps: { memory: Memory; topics: TopicsStore; suggestions: SuggestionsStore; clock: Clock; logger: Logger; config: LiloConfig },
  ctx: { userId: string; userMessage: { id: number } },
  markers: Marker[],
): Promise<MarkerEffects> {
  const out: MarkerEffects = { thoughts: [], important: [], topics: [], suggestions: [], ignored: [] };
  const now = deps.clock.now();
  for (const m of markers) {
    switch (m.name) {
      case "EMOTION": {
        const mood = normalizeMood(m.payload);
        if (mood) out.mood = mood;
        break;
      }
      case "THOUGHT": {
        const r = await deps.memory.add({ text: m.payload, userId: ctx.userId, store: "thoughts", extra: { origin: "chat" } });
        if (r.added) out.thoughts.push(r.id);
        break;
      }
      case "IMPORTANT": {
        const r = await deps.memory.add({ text: m.payload, userId: ctx.userId, store: "important", extra: { weight: 2, source_message_id: ctx.userMessage.id } });
        if (r.added) out.important.push(r.id);
        break;
      }
      case "FOLLOWUP": {
        const due = new Date(now.getTime() + deps.config.topics.followupDueDays * 86_400_000).toISOString();
        out.topics.push(deps.topics.add(ctx.userId, m.payload, "followup", due, now.toISOString()));
        break;
      }
      case "VORSCHLAG":
        out.suggestions.push(deps.suggestions.add(ctx.userId, m.payload, now.toISOString()));
        break;
      default:
        out.ignored.push(m.name);
    }
  }
  if (out.ignored.length) deps.logger.debug("markers stripped without effect in chat", { markers: out.ignored });
  return out;
}
