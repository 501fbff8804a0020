import type { Logger } from "../../foundation/ports/logger.ts";
import type { Marker, MarkerTurn, StoreMarkerServices } from "./marker.ts";
import type { MarkerRegistry } from "./marker-registry.ts";
import type { Mood } from "./emotion.ts";

/** What the store markers of one answer did. */
export interface MarkerEffects {
  mood?: Mood;
  /** Ids of what was stored, per marker name. */
  stored: Record<string, number[]>;
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
  registry: MarkerRegistry,
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
