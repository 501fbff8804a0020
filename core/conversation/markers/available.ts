import type { LookupName } from "../../lookups/lookups.ts";
import type { FetchMarkerDefinition } from "./marker.ts";
import type { MarkerRegistry } from "./marker-registry.ts";

/**
 * The fetch markers this setup answers: those of every chat (RECALL, DIARY)
 * always, a lookup marker when the lookups offer its lookup. They are taught
 * as markers, or sent as native tools, never both.
 */
export function answeredFetchMarkers<N extends string>(registry: MarkerRegistry<N>, offered: readonly LookupName[]): FetchMarkerDefinition<N>[] {
  return registry.all.filter(
    (d): d is FetchMarkerDefinition<N> => d.kind === "fetch" && (d.offer === "chat" || (d.lookup !== undefined && offered.includes(d.lookup))),
  );
}
