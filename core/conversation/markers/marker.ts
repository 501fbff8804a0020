/**
 * A marker is ONE object (SPEC §5): its name and variant spellings, its kind,
 * the line that teaches it to the model in each language, and what it does.
 * Parsing, the prompt, execution, the fetch follow-up and the native tools
 * all read the registry, so a new marker is one definition in one file.
 */
import type { Memory } from "../../memory/memory.ts";
import type { TopicsStore } from "../../foundation/store/topics.ts";
import type { SuggestionsStore } from "../../foundation/store/suggestions.ts";
import type { Mood } from "./emotion.ts";
import type { FetchDeps, FetchOutcome } from "./fetch.ts";

/** A known marker name (canonical upper-case spelling). */
export type MarkerName = string;

/** "fetch" markers need a follow-up model call with results; "store" ones only save. */
export type MarkerKind = "fetch" | "store";

/**
 * Where the model is told about a marker: in every chat, in chat only when
 * this setup's lookups answer it, or never in chat (the reflection's concern).
 */
export type MarkerOffer = "chat" | "lookup" | "elsewhere";

/** One marker found in an answer; payload is trimmed and never empty. */
export interface Marker {
  name: MarkerName;
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
}

/** What a store marker did: a mood for the answer, or the id of what it stored. */
export type StoreEffect = { mood: Mood } | { storedId: number } | undefined;

interface MarkerBase {
  readonly name: MarkerName;
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
export interface StoreMarkerDefinition extends MarkerBase {
  readonly kind: "store";
  /** Without a handler the marker is stripped and only read elsewhere (e.g. the reflection's [ANSPRECHEN:]). */
  store?(payload: string, turn: MarkerTurn, services: StoreMarkerServices): Promise<StoreEffect> | StoreEffect;
}

/** A marker that looks something up; all of one answer are answered in one follow-up call. */
export interface FetchMarkerDefinition extends MarkerBase {
  readonly kind: "fetch";
  /** Its results are the chat log's own words: an answer written with them ranks below originals in later searches. */
  readonly quotesChatLog?: boolean;
  fetch(marker: Marker, turn: { userId: string; conversationId: number }, deps: FetchDeps): Promise<FetchOutcome>;
}

/** Any marker definition. */
export type MarkerDefinition = StoreMarkerDefinition | FetchMarkerDefinition;

/** Folds a raw name for comparison: no diacritics, upper case, no "-" or "_". */
export function nameKey(raw: string): string {
  return raw.normalize("NFD").replace(/\p{M}/gu, "").toUpperCase().replace(/[-_]/g, "");
}

/** The markers Lilo understands, sorted into teaching order, with name and alias lookup. */
export class MarkerRegistry {
  private readonly byKey = new Map<string, MarkerDefinition>();
  private readonly canonical = new Map<string, MarkerDefinition>();

  /** Every marker, in teaching order. */
  readonly all: readonly MarkerDefinition[];

  constructor(markers: readonly MarkerDefinition[]) {
    // A stable sort: markers without an order keep the order they were given in, after the ordered ones.
    const all = [...markers].sort((a, b) => (a.teachOrder ?? Number.MAX_SAFE_INTEGER) - (b.teachOrder ?? Number.MAX_SAFE_INTEGER));
    this.all = all;
    for (const def of all) {
      if (this.canonical.has(def.name)) throw new Error(`marker ${def.name} is defined twice`);
      this.canonical.set(def.name, def);
    }
    // Canonical names win over aliases of other markers.
    for (const def of all) for (const a of def.aliases ?? []) if (!this.byKey.has(nameKey(a))) this.byKey.set(nameKey(a), def);
    for (const def of all) this.byKey.set(def.name, def);
  }

  /** The definition of a canonical name. */
  get(name: MarkerName): MarkerDefinition | undefined {
    return this.canonical.get(name);
  }

  /** The definition a raw name stands for (canonical or alias), if any. */
  resolve(raw: string): MarkerDefinition | undefined {
    return this.byKey.get(nameKey(raw));
  }

  /** Only canonical names count (a forgotten colon is accepted for those alone). */
  isCanonical(raw: string): boolean {
    return this.canonical.has(nameKey(raw));
  }

  /** Every folded spelling (names and aliases): a truncated head is stripped when it starts one. */
  spellings(): string[] {
    return [...this.byKey.keys()];
  }

  /** Canonical names in teaching order. */
  names(): MarkerName[] {
    return this.all.map((d) => d.name);
  }

  /** A registry with more markers (a feature of a test or a plugin), placed by their teachOrder, else after these. */
  with(...more: MarkerDefinition[]): MarkerRegistry {
    return new MarkerRegistry([...this.all, ...more]);
  }
}
