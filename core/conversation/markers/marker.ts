/**
 * A marker is ONE object (docs/spec.md §5): its name and variant spellings, its kind,
 * the line that teaches it to the model in each language, what it does and,
 * for a fetch marker, the native tool it also is. Parsing, the prompt,
 * execution, the fetch follow-up and the native tools all read the registry
 * (marker-registry.ts), so a new marker is one definition in one file.
 *
 * This file holds types only (and the two helpers that infer a definition's
 * literal name), so every marker file can import it without an import circle.
 */
import type { z } from "zod";
import type { Clock } from "../../foundation/ports/clock.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import type { Memory, MemoryHit } from "../../memory/memory.ts";
import type { ChatSearch, RecallPassage } from "../../memory/recall/search.ts";
import type { ChatRecallDeps } from "../../memory/recall/sheet-recall.ts";
import type { TopicsStore } from "../../foundation/store/topics.ts";
import type { SuggestionsStore } from "../../foundation/store/suggestions.ts";
import type { SearchResult } from "../../foundation/ports/web-search.ts";
import type { FeedItem } from "../../foundation/store/feeds.ts";
import type { LookupName, Lookups } from "../../lookups/lookups.ts";
import type { ReadPage } from "../../lookups/web/read-page.ts";
import type { Mood } from "./emotion.ts";
import type { BoundaryGuard } from "../../memory/boundaries/boundaries.ts";

/** "fetch" markers need a follow-up model call with results; "store" ones only save. */
type MarkerKind = "fetch" | "store";

/**
 * Where the model is told about a marker: in every chat, in chat only when
 * this setup's lookups answer it, or never in chat (the reflection's concern).
 */
type MarkerOffer = "chat" | "lookup" | "elsewhere";

/** One marker found in an answer; payload is trimmed and never empty. `N` is the registry's name type. */
export interface Marker<N extends string = string> {
  name: N;
  payload: string;
  kind: MarkerKind;
}

/** The turn a marker was written in. */
export interface MarkerTurn {
  userId: string;
  userMessageId: number;
  conversationId: number;
  now: Date;
}

/** The collaborators store markers act on. */
export interface StoreMarkerServices {
  memory: Memory;
  topics: TopicsStore;
  suggestions: SuggestionsStore;
  /** Days until a [FOLLOWUP:] topic is due. */
  followupDueDays: number;
  /** Topics the user asked Lilo never to bring up: no follow-up is opened about them. */
  boundaries?: BoundaryGuard | undefined;
}

/** What a store marker did: a mood for the answer, or the id of what it stored. */
type StoreEffect = { mood: Mood } | { storedId: number } | undefined;

/** What one fetch marker brought back. */
export type FetchOutcome =
  | { marker: Marker; status: "found" | "empty"; kind: "recall"; passages: RecallPassage[]; terms: string[]; timeWords: string[] }
  | { marker: Marker; status: "found" | "empty"; kind: "diary"; entries: MemoryHit[] }
  | { marker: Marker; status: "found" | "empty"; kind: "search"; results: SearchResult[] }
  | { marker: Marker; status: "found"; kind: "page"; page: ReadPage }
  | { marker: Marker; status: "found" | "empty"; kind: "news"; items: FeedItem[] }
  /** [REMIND:] / set_reminder: "found" when the reminder was set, "empty" when it was not; `text` is the program's sentence either way. */
  | { marker: Marker; status: "found" | "empty"; kind: "reminder"; text: string }
  | { marker: Marker; status: "refused"; reason: string }
  | { marker: Marker; status: "unavailable" }
  | { marker: Marker; status: "failed"; error: string };

/** What a fetch marker's handler needs from Lilo (executing them also needs the registry: fetch.ts). */
export interface FetchServices {
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
  /**
   * Sets a reminder asked for in the chat ([REMIND:], set_reminder): the program reads the time from
   * the person's words and answers with its confirmation or refusal; without it the marker is unavailable.
   */
  reminders?: { fromChat(userId: string, conversationId: number, when: string, what: string): { ok: boolean; text: string } };
  /** Web search, fetch_url and news ([SEARCH:], [FETCH:], [NEWS:]); without it they are unavailable. */
  lookups?: Lookups | undefined;
}

/**
 * A fetch marker as a native tool (docs/spec.md §5): the tool's name, when the model
 * should use it, and the zod schema that validates its arguments and gives
 * the JSON schema sent. The one string argument (`query` or `url`) is the
 * marker's payload, so both paths give the same text.
 */
export interface MarkerTool {
  readonly name: string;
  readonly description: string;
  readonly args: z.ZodObject;
  /** The marker payload its validated arguments stand for, when they are more than one `query` or `url`. */
  readonly payload?: (args: Record<string, unknown>) => string;
}

interface MarkerBase<N extends string> {
  readonly name: N;
  /**
   * Variant spellings, compared after folding case, diacritics, "-" and "_"
   * (so FOLLOW-UP and KI-NEWS need no entry). Only unambiguous ones.
   */
  readonly aliases?: readonly string[];
  readonly offer: MarkerOffer;
  /**
   * Its place in the prompt's teaching order (smaller first); the registry
   * sorts by it, so a marker list may name markers in any order. Without
   * one a marker is taught after all that have one.
   */
  readonly teachOrder?: number;
  /** When to use it and one example, written as the model should write it. */
  readonly instruction: Readonly<Record<"de" | "en", string>>;
  /** Written in double brackets ([[VORSCHLAG: x]]): one bracket missing or extra is accepted. */
  readonly doubleBracket?: boolean;
}

/** A marker whose effect is saving something; runs once the answer is final. */
export interface StoreMarkerDefinition<N extends string = string> extends MarkerBase<N> {
  readonly kind: "store";
  /** Without a handler the marker is stripped and only read elsewhere (e.g. the reflection's [ANSPRECHEN:]). */
  store?(payload: string, turn: MarkerTurn, services: StoreMarkerServices): Promise<StoreEffect> | StoreEffect;
}

/** A marker that looks something up; all of one answer are answered in one follow-up call. */
export interface FetchMarkerDefinition<N extends string = string> extends MarkerBase<N> {
  readonly kind: "fetch";
  /** Its results are the chat log's own words: an answer written with them ranks below originals in later searches. */
  readonly quotesChatLog?: boolean;
  /** The lookup that answers it (offer "lookup"): taught, sent as a tool and executed only when this setup's lookups offer it. */
  readonly lookup?: LookupName;
  /** The native tool this marker also is (models with tool calls get it instead of the marker's line). */
  readonly tool?: MarkerTool;
  fetch(marker: Marker, turn: { userId: string; conversationId: number }, deps: FetchServices): Promise<FetchOutcome>;
}

/** Any marker definition. */
export type MarkerDefinition<N extends string = string> = StoreMarkerDefinition<N> | FetchMarkerDefinition<N>;

/** A store marker, its literal name kept in the type (so the registry's name union is derived, never written twice). */
export function storeMarker<const N extends string>(def: StoreMarkerDefinition<N>): StoreMarkerDefinition<N> {
  return def;
}

/** A fetch marker, its literal name kept in the type. */
export function fetchMarker<const N extends string>(def: FetchMarkerDefinition<N>): FetchMarkerDefinition<N> {
  return def;
}
