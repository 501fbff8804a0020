/**
 * Executes the fetch markers of one answer (SPEC §5): all of them, so one
 * follow-up call can answer them together, each by its definition's handler
 * (core/conversation/markers/lookup-markers.ts). A failing search is reported, never thrown.
 */
import type { Clock } from "../../foundation/ports/clock.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import type { Memory, MemoryHit } from "../../memory/memory.ts";
import type { ChatSearch, RecallPassage } from "../../memory/recall/search.ts";
import type { Marker, MarkerRegistry } from "./marker.ts";
import type { ChatRecallDeps } from "../../memory/recall/sheet-recall.ts";
import { MARKERS } from "./registry.ts";
import { LookupError, describeError } from "../../foundation/errors.ts";
import type { Lookups } from "../../lookups/lookups.ts";
import type { SearchResult } from "../../foundation/ports/web-search.ts";
import type { ReadPage } from "../../lookups/web/read-page.ts";
import type { FeedItem } from "../../foundation/store/feeds.ts";

/** What one fetch marker brought back. */
export type FetchOutcome =
  | { marker: Marker; status: "found" | "empty"; kind: "recall"; passages: RecallPassage[]; terms: string[]; timeWords: string[] }
  | { marker: Marker; status: "found" | "empty"; kind: "diary"; entries: MemoryHit[] }
  | { marker: Marker; status: "found" | "empty"; kind: "search"; results: SearchResult[] }
  | { marker: Marker; status: "found"; kind: "page"; page: ReadPage }
  | { marker: Marker; status: "found" | "empty"; kind: "news"; items: FeedItem[] }
  | { marker: Marker; status: "refused"; reason: string }
  | { marker: Marker; status: "unavailable" }
  | { marker: Marker; status: "failed"; error: string };

/** What fetching needs from Lilo. */
export interface FetchDeps {
  /** How much each lookup brings back: [RECALL:] passages, [DIARY:] entries, notes of the memory tool. */
  limits: { maxPassages: number; diaryTopK: number; notesTopK: number };
  /** The users' time zone, for the time words of [RECALL:]. */
  timeZone: string;
  clock: Clock;
  logger: Logger;
  memory: Memory;
  recall: ChatSearch;
  /** The chat-log search with its meaning side; without it [RECALL:] ranks by words alone. */
  chatRecall?: ChatRecallDeps;
  /** Web search, fetch_url and news ([SEARCH:], [FETCH:], [NEWS:]); without it they are unavailable. */
  lookups?: Lookups | undefined;
  /** The markers understood (default: Lilo's registry). */
  markers?: MarkerRegistry | undefined;
}

/**
 * Runs every fetch marker once (repeats of the same marker and payload are
 * answered once), in the order they appear. `conversationId` is the running
 * conversation, which recall never returns.
 */
export async function executeFetchMarkers(
  deps: FetchDeps,
  ctx: { userId: string; conversationId: number },
  markers: Marker[],
): Promise<FetchOutcome[]> {
  const registry = deps.markers ?? MARKERS;
  const seen = new Set<string>();
  const out: FetchOutcome[] = [];
  for (const marker of markers) {
    if (marker.kind !== "fetch") continue;
    const key = `${marker.name}\u0000${marker.payload.toLowerCase()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    try {
      const def = registry.get(marker.name);
      out.push(def?.kind === "fetch" ? await def.fetch(marker, ctx, deps) : { marker, status: "unavailable" });
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
