/**
 * Executes the fetch markers of one answer (docs/spec.md §5): all of them, so one
 * follow-up call can answer them together, each by its definition's handler
 * (core/conversation/markers/lookup-markers.ts). A failing search is reported, never thrown.
 */
import type { FetchOutcome, FetchServices, Marker } from "./marker.ts";
import type { MarkerRegistry } from "./marker-registry.ts";
import { LookupError, describeError } from "../../foundation/errors.ts";

/** What fetching needs: the handlers' services and the registry that finds each marker's handler. */
export interface FetchDeps extends FetchServices {
  /** The markers understood, resolved once in the composition root. */
  markers: MarkerRegistry;
}

/**
 * Runs every fetch marker once (repeats of the same marker and payload are
 * answered once), in the order they appear. `conversationId` is the running
 * conversation, which recall never returns.
 */
export async function executeFetchMarkers(deps: FetchDeps, ctx: { userId: string; conversationId: number }, markers: Marker[]): Promise<FetchOutcome[]> {
  const seen = new Set<string>();
  const out: FetchOutcome[] = [];
  for (const marker of markers) {
    if (marker.kind !== "fetch") continue;
    const key = `${marker.name}\u0000${marker.payload.toLowerCase()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    try {
      const def = deps.markers.get(marker.name);
      const answered = def?.kind === "fetch" && (!def.lookup || !!deps.lookups?.offered().includes(def.lookup));
      out.push(answered ? await def.fetch(marker, ctx, deps) : { marker, status: "unavailable" });
    } catch (err) {
      if (err instanceof LookupError && err.reason === "refused") {
        out.push({ marker, status: "refused", reason: err.message });
        continue;
      }
      deps.logger.error("fetch marker failed", { userId: ctx.userId, marker: marker.name, error: describeError(err) });
      out.push({ marker, status: "failed", error: describeError(err) });
    }
  }
  return out;
}
