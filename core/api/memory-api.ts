import type { VectorStore } from "../foundation/ports/vector-index.ts";
import { VECTOR_STORES } from "../foundation/ports/vector-index.ts";
import type { Memory, AddInput, AddResult, MemoryHit } from "../memory/memory.ts";
import type { TextRow } from "../foundation/store/text-rows.ts";
import { findDuplicates, type DedupeStore, type DuplicateGroup } from "../memory/duplicates.ts";

import { ANY_USER, type MemoryOwner } from "./names.ts";

export { ANY_USER, type MemoryOwner };

/** A stored memory (note, important memory, thought, diary entry) as callers see it. */
export interface MemoryEntry {
  id: number;
  store: VectorStore;
  userId: string;
  text: string;
  createdAt: string;
  updatedAt: string;
  /** Store-specific fields (kind, weight, questions, origin, day, source_message_id). */
  extra: Record<string, unknown>;
}

/** Input of `memory.add`: the same as the memory's own add (core/memory/memory.ts). */
type AddMemoryInput = AddInput;

/** Options of `memory.search`. */
interface MemorySearchOptions {
  store?: VectorStore;
  k?: number;
  userId: string;
  minScore?: number;
}

/** The memory stores as use cases: row and vector always change together; the ownership rule is here, once. */
export interface MemoryApi {
  add(input: AddMemoryInput): Promise<AddResult>;
  /** Top-k entries of one store by words and meaning (the cheat sheet's hybrid search). */
  search(query: string, options: MemorySearchOptions): Promise<MemoryHit[]>;
  /** The cosine below which the cheat sheet leaves out a note found by meaning alone (the embedder's floor, or LILO_NOTES_MIN_SCORE). */
  sheetMinScore(): number;
  /** The user's newest live entries of one store (default notes, 50). */
  list(userId: string, opts?: { store?: VectorStore; limit?: number }): MemoryEntry[];
  /** One live entry the owner may see; undefined for a missing, superseded or forgotten entry, or another user's. */
  get(owner: MemoryOwner, store: VectorStore, id: number): MemoryEntry | undefined;
  /** The entries among `ids` the owner may see, in the order of `ids`. */
  getMany(owner: MemoryOwner, store: VectorStore, ids: number[]): MemoryEntry[];
  /**
   * Changes an entry's text and re-embeds it. For a user, an entry they may
   * not change (see `get`) is refused with undefined, the same answer as for a
   * missing one, so ids of other people's entries cannot be probed; for
   * `ANY_USER` a missing entry throws NotFoundError.
   */
  edit(owner: MemoryOwner, store: VectorStore, id: number, text: string): Promise<MemoryEntry | undefined>;
  /** Forgets an entry (row and vector); refused like `edit`. Returns the entry as it was. */
  forget(owner: MemoryOwner, store: VectorStore, id: number): Promise<MemoryEntry | undefined>;
  /** Exact duplicates (same user, store and trimmed text) of one store; one user's or everyone's. */
  duplicates(store: DedupeStore, userId?: string): DuplicateGroup[];
  /** Live entries of every memory store and user (what a reindex embeds). */
  countLive(): number;
  /**
   * Resolves once the user's entries of every store are in the keyword index
   * in memory (built in slices between other work from the user's first
   * search; until then FTS5 ranks). For the benchmark, like `recall.indexMessages`.
   */
  indexKeywords(userId: string): Promise<void>;
}

/** Builds the memory use cases over the memory service. */
export function memoryApi(memory: Memory): MemoryApi {
  // The one ownership rule: a user sees and changes only their own live entries.
  const visible = (owner: MemoryOwner, row: TextRow | undefined): row is TextRow =>
    !!row && !row.supersededAt && !row.forgottenAt && (owner === ANY_USER || row.userId === owner);
  const entry = (store: VectorStore, r: TextRow): MemoryEntry => ({
    id: r.id,
    store,
    userId: r.userId,
    text: r.text,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    extra: r.extra,
  });
  const get = (owner: MemoryOwner, store: VectorStore, id: number) => {
    const row = memory.rows[store].get(id);
    return visible(owner, row) ? entry(store, row) : undefined;
  };
  return {
    add: (input) => memory.add(input),
    search: (query, options) => memory.search(query, options),
    sheetMinScore: () => memory.thresholds.notesMinScore,
    list: (userId, opts = {}) => memory.rows[opts.store ?? "notes"].list(userId, opts.limit).map((r) => entry(opts.store ?? "notes", r)),
    get,
    getMany: (owner, store, ids) => memory.rows[store].getMany(ids).flatMap((r) => (visible(owner, r) ? [entry(store, r)] : [])),
    edit: async (owner, store, id, text) => {
      // The operator's edit keeps the memory service's own errors (NotFoundError for a missing entry).
      if (owner !== ANY_USER && !get(owner, store, id)) return undefined;
      await memory.edit(store, id, text);
      return get(ANY_USER, store, id);
    },
    forget: async (owner, store, id) => {
      if (owner !== ANY_USER && !get(owner, store, id)) return undefined;
      return entry(store, await memory.forget(store, id));
    },
    duplicates: (store, userId) => findDuplicates(memory, store, userId),
    countLive: () => VECTOR_STORES.reduce((n, store) => n + memory.rows[store].countLive(), 0),
    indexKeywords: (userId) => memory.keywordsIndexed(userId),
  };
}
