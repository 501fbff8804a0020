/** Which memory stores have vectors. SQLite holds the rows; the index only points at them. */
export const VECTOR_STORES = ["notes", "important", "thoughts", "diary"] as const;
export type VectorStore = (typeof VECTOR_STORES)[number];
/** Everything the index holds: the memory stores and the chat log's messages (the meaning side of the chat-log search). */
export const INDEX_STORES = [...VECTOR_STORES, "messages"] as const;
export type IndexStore = (typeof INDEX_STORES)[number];

/** Identifies one vector: the SQLite row it mirrors. */
export interface VectorKey<S extends IndexStore = VectorStore> {
  store: S;
  rowId: number;
  userId: string;
}

export interface VectorRecord<S extends IndexStore = VectorStore> extends VectorKey<S> {
  vector: Float32Array;
}

export interface VectorHit<S extends IndexStore = VectorStore> extends VectorKey<S> {
  /** Cosine similarity, 1 = same direction. */
  score: number;
}

export interface VectorQuery<S extends IndexStore = VectorStore> {
  vector: Float32Array;
  store: S;
  userId: string;
  k: number;
  /** Hits below this cosine similarity are left out. */
  minScore?: number;
  /** Only among these rows (a search narrowed by the caller, e.g. to a time range); all when absent. */
  rowIds?: number[];
  /** Never these rows (e.g. the conversation running now): left out before the k best are taken. */
  excludeRowIds?: number[];
}

/** What `lilo doctor` shows about an index that keeps a derived copy of its own. */
export interface VectorIndexState {
  entries: number;
  /** Vectors in SQLite (the truth the copy is derived from). */
  vectorsInSqlite: number;
  partitions: number;
  graphs: number;
  /** Saved graphs not loaded yet: they are read in the background after start, searches scan exactly meanwhile. */
  graphsWaiting?: number;
  /** Searches answered through a graph since start (tests and the benchmark check that a large partition uses one). */
  graphSearches?: number;
  /** Graphs built since start: a graph loaded from its saved file is not counted. */
  graphBuilds?: number;
  /** Sequence number of the last change the copy applied, and the newest in SQLite. */
  lastApplied: number;
  lastInSqlite: number;
  snapshotPath: string | undefined;
  /** Where the copy came from at start: its snapshot files (and SQLite's log) or a rebuild from SQLite. */
  loadedFrom?: "snapshot" | "sqlite";
  /** Bytes written to the snapshot files since start (they grow with the changes, not with the copy). */
  snapshotBytesWritten?: number;
  /** RAM the residual copies of large partitions take (their candidates are rescored in RAM, not from SQLite). */
  residualBytes?: number;
  /** Why the copy must be rebuilt, or undefined. */
  rebuildNeeded: string | undefined;
}

/**
 * A derived, rebuildable index of vectors. Every vector carries store, row id
 * and user id; a search never crosses users or stores.
 */
export interface VectorIndex {
  /** Human-readable backend name, for `lilo doctor`. */
  readonly name: string;
  /**
   * Prepares the index for vectors of `dimension` made by `embedderId`.
   * Throws a VectorIndexError when the index holds vectors of another
   * dimension or model (run `lilo reindex`).
   */
  init(dimension: number, embedderId: string): Promise<void>;
  /** Inserts or replaces vectors (same key = same vector). */
  upsert(records: VectorRecord<IndexStore>[]): Promise<void>;
  /** Removes the vectors of these rows; unknown keys are ignored. */
  delete(keys: VectorKey<IndexStore>[]): Promise<void>;
  /** Nearest vectors of one user in one store, best first. */
  search<S extends IndexStore>(query: VectorQuery<S>): Promise<VectorHit<S>[]>;
  /** Every key the index holds, for consistency checks. */
  keys(): Promise<VectorKey<IndexStore>[]>;
  /** Drops everything and prepares for a new dimension / model. */
  reset(dimension: number, embedderId: string): Promise<void>;
  close(): Promise<void>;
  /** The state of a derived copy (embedded index only). */
  copyState?(): VectorIndexState;
  /** Rebuilds the derived copy from the vectors in SQLite, without re-embedding (embedded index only). */
  reloadCopy?(): Promise<void>;
  /** Begins background work held until the start is over (embedded index created with `holdUpkeep`). */
  startUpkeep?(): void;
}
