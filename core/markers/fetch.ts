/**
 * Executes the fetch markers of one answer (SPEC §5): all of them, so one
 * follow-up call can answer them together. [RECALL:] searches the chat log
 * word by word with time words as filters; [DIARY:] finds diary entries by
 * meaning; [SEARCH:], [FETCH:] and [NEWS:] go to the lookups (core/web).
 * A lookup marker this setup cannot answer is reported as unavailable, so the follow-up says so instead of the model
 * inventing a result. A failing search is reported, never thrown.
 */
import type { Clock } from "../ports/clock.ts";
import type { Logger } from "../ports/logger.ts";
import type { LiloConfig } from "../config.ts";
import type { Memory, MemoryHit } from "../memory/memory.ts";
import type { ChatSearch, RecallPassage } from "../recall/search.ts";
import type { Marker } from "./parse.ts";
import { parseRecall, recallPassages, type ChatRecallDeps } from "../recall/sheet-recall.ts";
import { LookupError, describeError } from "../errors.ts";
import type { Lookups } from "../web/lookups.ts";
import type { SearchResult } from "../ports/web-search.ts";
import type { ReadPage } from "../web/read-page.ts";
import type { FeedItem } from "../store/feeds.ts";

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
  config: LiloConfig;
  clock: Clock;
  logger: Logger;
  memory: Memory;
  recall: ChatSearch;
  /** The chat-log search with its meaning side; without it [RECALL:] ranks by words alone. */
  chatRecall?: ChatRecallDeps;
  /** Web search, fetch_url and news ([SEARCH:], [FETCH:], [NEWS:]); without it they are unavailable. */
  lookups?: Lookups | undefined;
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
  const seen = new Set<string>();
  const out: FetchOutcome[] = [];
  for (const marker of markers) {
    if (marker.kind !== "fetch") continue;
    const key = `${marker.name}\u0000${marker.payload.toLowerCase()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    try {
      out.push(await fetchOne(deps, ctx, marker));
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

async function fetchOne(deps: FetchDeps, ctx: { userId: string; conversationId: number }, marker: Marker): Promise<FetchOutcome> {
  switch (marker.name) {
    case "RECALL": {
      // The same search as the cheat sheet's automatic passages: time words filter, dates raise, words rank.
      const recallDeps = deps.chatRecall ?? { recall: deps.recall, clock: deps.clock, timeZone: deps.config.timezone };
      const q = parseRecall(marker.payload, deps.clock, deps.config.timezone);
      const vector = recallDeps.vectors ? await deps.memory.embed(marker.payload) : undefined;
      const passages = await recallPassages(recallDeps, marker.payload, { userId: ctx.userId, limit: deps.config.recall.maxPassages, excludeConversationId: ctx.conversationId, vector });
      return { marker, kind: "recall", status: passages.length ? "found" : "empty", passages, terms: q.terms, timeWords: q.timeWords };
    }
    case "DIARY": {
      const entries = await deps.memory.search(marker.payload, { userId: ctx.userId, store: "diary", k: deps.config.recall.diaryTopK });
      return { marker, kind: "diary", status: entries.length ? "found" : "empty", entries };
    }
    case "SEARCH":
    case "FETCH":
    case "KINEWS":
      return deps.lookups?.markerNames().includes(marker.name) ? lookUp(deps.lookups, ctx.userId, marker) : { marker, status: "unavailable" };
    default:
      return { marker, status: "unavailable" };
  }
}

/** [SEARCH:], [FETCH:] and [NEWS:] through the lookups (the same path native tools take). */
async function lookUp(lookups: Lookups, userId: string, marker: Marker): Promise<FetchOutcome> {
  if (marker.name === "SEARCH") {
    const results = await lookups.search(userId, marker.payload);
    return { marker, kind: "search", status: results.length ? "found" : "empty", results };
  }
  if (marker.name === "FETCH") return { marker, kind: "page", status: "found", page: await lookups.read(marker.payload) };
  const items = lookups.news(marker.payload);
  return { marker, kind: "news", status: items.length ? "found" : "empty", items };
}
