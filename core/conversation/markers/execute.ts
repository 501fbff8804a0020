import type { Logger } from "../../foundation/ports/logger.ts";
import type { Marker, MarkerName, MarkerRegistry, MarkerTurn, StoreMarkerServices } from "./marker.ts";
import type { Mood } from "./emotion.ts";
import { MARKERS } from "./registry.ts";

/**
 * Markers Lilo is told about in chat: those offered in every chat. The fetch
 * markers RECALL and DIARY are answered by one follow-up call
 * (core/conversation/turn/follow-up.ts); the lookup markers are added when this setup has them.
 */
export function chatMarkers(registry: MarkerRegistry = MARKERS): MarkerName[] {
  return registry.all.filter((d) => d.offer === "chat").map((d) => d.name);
}

/** The chat markers of Lilo's registry. */
export const CHAT_MARKERS: readonly MarkerName[] = chatMarkers();

/** What the store markers of one answer did. */
export interface MarkerEffects {
  mood?: Mood;
  /** Ids of what was stored, per marker name. */
  stored: Record<MarkerName, number[]>;
  /** Markers that were stripped but not executed here. */
  ignored: string[];
}

/**
 * Executes the store markers of one answer (the text is already stripped),
 * each by its definition's handler. Several THOUGHTs are all saved; the last
 * EMOTION wins.
 */
export async function executeStoreMarkers(
  services: StoreMarkerServices & { logger: Logger },
  turn: MarkerTurn,
  markers: Marker[],
  registry: MarkerRegistry = MARKERS,
): Promise<MarkerEffects> {
  const out: MarkerEffects = { stored: {}, ignored: [] };
  for (const m of markers) {
    const def = registry.get(m.name);
    if (def?.kind !== "store" || !def.store) {
      out.ignored.push(m.name);
      continue;
    }
    const effect = await def.store(m.payload, turn, services);
    if (effect && "mood" in effect) out.mood = effect.mood;
    else if (effect) (out.stored[m.name] ??= []).push(effect.storedId);
  }
  if (out.ignored.length) services.logger.debug("markers stripped without effect in chat", { markers: out.ignored });
  return out;
}
