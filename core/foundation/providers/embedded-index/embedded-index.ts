import { VectorIndexError } from "../../errors.ts";
import type { IndexStore, VectorHit, VectorIndex, VectorIndexState, VectorKey, VectorQuery, VectorRecord } from "../../ports/vector-index.ts";
import { isEncryptedFile, type Db } from "../../store/db.ts";
import { snapshotKeyOf } from "./seal.ts";
import { Partition, quantize } from "./partition.ts";
import { SnapshotStore } from "./snapshot-store.ts";
import {
  DEFAULT_GRAPH_MIN_SIZE,
  DEFAULT_MESSAGE_GRAPH_MIN_SIZE,
  DEFAULT_RESCORE_DEPTH,
  DEFAULT_RESIDUAL_BUDGET_MB,
  GRAPH_CHUNK,
  GRAPH_DEPTH_FACTOR,
  GRAPH_EXTRA_MAX,
  MESSAGE_GRAPH_BREADTH,
  MESSAGE_GRAPH_MIN_BREADTH,
  type EmbeddedIndexOptions,
} from "./options.ts";
import { LogPruner } from "./log-pruner.ts";
import { VectorTable, type Change, type TableMeta } from "../../store/vectors/vector-table.ts";
import { dropSqliteVec, hasSqliteVecTables, modelMismatch, takeOverSqliteVec } from "./take-over-sqlite-vec.ts";
import { asIndexError } from "../index-errors.ts";
import { rescore } from "./rescoring.ts";
import { GraphUpkeep } from "./graph-upkeep.ts";
import { graphFilesFor } from "./graph-files.ts";

export type { EmbeddedIndexOptions } from "./options.ts";

/**
 * The default vector index: float vectors in a plain SQLite table (the
 * truth, written with a change log in one transaction), an int8 copy per
 * (user, store) in RAM scanned exactly — or through an HNSW graph above
 * `graphMinSize` — and the candidates rescored exactly from the floats.
 * The RAM copy is saved next to the database with the last change it holds,
 * loaded at start and caught up from the log, so a crash after a commit
 * loses nothing; `PRAGMA data_version` tells it when another process (the
 * CLI) wrote, and it catches up before answering.
 */
export class EmbeddedIndex implements VectorIndex {
  readonly name = "embedded (int8 + float rescoring)";
  private table: VectorTable | undefined;
  private meta: TableMeta | undefined;
  private parts = new Map<string, Partition>();
  private lastSeq = 0;
  private dataVersion = -1;
  private unsaved = 0;
  private readonly snapshotPath: string | undefined;
  private readonly snapshots: SnapshotStore | undefined;
  private loadedFrom: "snapshot" | "sqlite" = "sqlite";
  private readonly rescoreDepth: number;
  private readonly messageGraphBreadth: number;
  private readonly saveEvery: number;
  private readonly pruner: LogPruner;
  private readonly graphs: GraphUpkeep;
  private readonly warn: ((message: string) => void) | undefined;

  constructor(
    private readonly db: Db,
    opts: EmbeddedIndexOptions = {},
  ) {
    const path = opts.snapshotPath === null ? undefined : (opts.snapshotPath ?? (db.memory ? undefined : `${db.name}.vectors`));
    // Beside an encrypted database a snapshot is kept only sealed: without the key, none at all.
    this.snapshotPath = path && !opts.dataKey && !db.memory && isEncryptedFile(db.name) ? undefined : path;
    this.warn = opts.warn;
    this.rescoreDepth = opts.rescoreDepth ?? DEFAULT_RESCORE_DEPTH;
    this.messageGraphBreadth = opts.messageGraphBreadth ?? MESSAGE_GRAPH_BREADTH;
    this.saveEvery = opts.saveEvery ?? 5000;
    this.graphs = new GraphUpkeep(
      () => this.parts.values(),
      (p, ids) => this.run(() => this.table!.floats(p.store as IndexStore, ids), "read vectors for the residual copy"),
      {
        graphMinSize: opts.graphMinSize ?? DEFAULT_GRAPH_MIN_SIZE,
        messageGraphMinSize: opts.messageGraphMinSize ?? DEFAULT_MESSAGE_GRAPH_MIN_SIZE,
        graphBuild: opts.graphBuild ?? "background",
        graphChunk: opts.graphChunk ?? GRAPH_CHUNK,
        residualBudget: (opts.residualBudgetMb ?? DEFAULT_RESIDUAL_BUDGET_MB) * 2 ** 20,
      },
      opts.warn,
      opts.debug,
    );
    if (opts.holdUpkeep) this.graphs.hold();
    const source = {
      parts: () => [...this.parts.values()],
      part: (userId: string, store: string) => this.parts.get(partKey(userId, store)),
      state: () => ({ ...this.ready().meta, lastSeq: this.lastSeq }),
      persisted: (seq: number) => this.pruner.persisted(seq),
    };
    const key = this.snapshotPath && opts.dataKey ? snapshotKeyOf(opts.dataKey) : undefined;
    this.snapshots = this.snapshotPath ? new SnapshotStore(this.snapshotPath, source, opts, key, graphFilesFor(key, opts)) : undefined;
    this.pruner = new LogPruner(() => this.table, opts.keepLog ?? 10_000, this.snapshots); // a failure is raised by the next save
  }

  async init(dimension: number, embedderId: string): Promise<void> {
    checkDimension(dimension);
    const table = (this.table ??= this.run(() => new VectorTable(this.db), "create the vector tables"));
    const own = table.meta();
    // New tables, or an older Lilo's sqlite-vec tables still there: decided again inside the write lock.
    const takeOver = () => this.db.transaction(() => takeOverSqliteVec(this.db, table, dimension, embedderId).meta).immediate();
    const leftovers = !own || this.run(() => hasSqliteVecTables(this.db), "look for sqlite-vec tables");
    const meta = leftovers ? this.run(takeOver, "take over the sqlite-vec vectors") : own;
    if (meta.dimension !== dimension || meta.embedderId !== embedderId) throw modelMismatch(meta, dimension, embedderId);
    this.meta = meta;
    const applied = this.run(() => this.load(meta), "load the vector index");
    if (applied > 0) this.save(false);
  }

  async reset(dimension: number, embedderId: string): Promise<void> {
    checkDimension(dimension);
    const table = (this.table ??= new VectorTable(this.db));
    this.meta = this.run(
      () =>
        this.db
          .transaction(() => {
            dropSqliteVec(this.db);
            return table.reset(dimension, embedderId);
          })
          .immediate(),
      "reset the vector index",
    );
    this.parts = new Map();
    this.lastSeq = table.lastSeq();
    this.dataVersion = table.dataVersion();
    this.snapshots?.remove();
    this.save(false);
  }

  async upsert(records: VectorRecord<IndexStore>[]): Promise<void> {
    const { table, meta } = this.ready();
    for (const r of records) {
      if (r.vector.length !== meta.dimension)
        throw new VectorIndexError(`Vector for ${r.store}#${r.rowId} has ${r.vector.length} dimensions, the index expects ${meta.dimension}`);
    }
    if (records.length === 0) return;
    this.write(() => table.put(records));
    for (const r of records) this.apply(r.store, r.rowId, r.userId, r.vector);
    this.afterChanges(records.length);
  }

  async delete(keys: VectorKey<IndexStore>[]): Promise<void> {
    const { table } = this.ready();
    if (keys.length === 0) return;
    this.write(() => table.remove(keys));
    for (const k of keys) this.apply(k.store, k.rowId, k.userId, undefined);
    this.afterChanges(keys.length);
  }

  async search<S extends IndexStore>(query: VectorQuery<S>): Promise<VectorHit<S>[]> {
    const { table, meta } = this.ready();
    if (query.vector.length !== meta.dimension)
      throw new VectorIndexError(`Query vector has ${query.vector.length} dimensions, the index expects ${meta.dimension}`);
    const k = Math.floor(query.k);
    if (!(k > 0)) return [];
    this.refresh();
    const part = this.parts.get(partKey(query.userId, query.store));
    if (!part || part.count === 0) return [];
    // A graph misses some near neighbours an exact scan would find: it proposes more candidates for rescoring.
    const exactDepth = Math.max(this.rescoreDepth, Math.ceil(1.5 * k));
    // Message graphs instead search wider and propose no more than the scan would: each extra is a float read.
    const messages = query.store === "messages";
    const depth = part.hasGraph && !messages ? exactDepth + Math.min(Math.ceil(exactDepth * (GRAPH_DEPTH_FACTOR - 1)), GRAPH_EXTRA_MAX) : exactDepth;
    const q = quantize(query.vector);
    const excluded = query.excludeRowIds?.length ? new Set(query.excludeRowIds) : undefined;
    // Excluded rows may take up to |excluded| of the best places: look that much deeper, then drop them.
    const deeper = depth + (excluded?.size ?? 0);
    const breadth = messages ? Math.max(MESSAGE_GRAPH_MIN_BREADTH, Math.ceil(deeper * this.messageGraphBreadth)) : undefined;
    let ids = query.rowIds ? part.candidatesAmong(q, query.rowIds, deeper) : part.candidates(q, deeper, breadth);
    if (excluded) ids = ids.filter((id) => !excluded.has(id)).slice(0, depth);
    const scored = this.run(() => rescore(table, part, query.store, query.vector, ids), "read vectors for rescoring");
    const hits: VectorHit<S>[] = [];
    for (const [rowId, score] of scored) {
      if (query.minScore !== undefined && !(score >= query.minScore)) continue;
      hits.push({ store: query.store, rowId, userId: query.userId, score });
    }
    return hits.sort((a, b) => b.score - a.score).slice(0, k);
  }

  async keys(): Promise<VectorKey<IndexStore>[]> {
    this.ready();
    this.refresh();
    const out: VectorKey<IndexStore>[] = [];
    for (const p of this.parts.values()) {
      for (let i = 0; i < p.count; i++) out.push({ store: p.store as IndexStore, rowId: p.rowIds[i]!, userId: p.userId });
    }
    return out;
  }

  /** The state `lilo doctor` reports. */
  copyState(): VectorIndexState {
    const { table, meta } = this.ready();
    this.refresh();
    const entries = [...this.parts.values()].reduce((n, p) => n + p.count, 0);
    const vectorsInSqlite = table.count();
    const now = table.meta();
    const rebuildNeeded =
      !now || now.dimension !== meta.dimension || now.embedderId !== meta.embedderId
        ? "the vector table holds another embedding model's vectors"
        : entries !== vectorsInSqlite
          ? `the RAM copy holds ${entries} vectors, SQLite ${vectorsInSqlite}`
          : undefined;
    return {
      entries,
      vectorsInSqlite,
      partitions: this.parts.size,
      graphs: [...this.parts.values()].filter((p) => p.hasGraph).length,
      graphsWaiting: [...this.parts.values()].filter((p) => p.graphPending).length,
      graphSearches: [...this.parts.values()].reduce((n, p) => n + p.graphSearches, 0),
      graphBuilds: this.graphs.builds,
      residualBytes: [...this.parts.values()].reduce((n, p) => n + (p.hasResiduals ? p.residualBytes : 0), 0),
      lastApplied: this.lastSeq,
      lastInSqlite: table.lastSeq(),
      snapshotPath: this.snapshotPath,
      loadedFrom: this.loadedFrom,
      ...(this.snapshots ? { snapshotBytesWritten: this.snapshots.bytesWritten } : {}),
      rebuildNeeded,
    };
  }

  /** Begins the background work held by the `holdUpkeep` option (a no-op otherwise). */
  startUpkeep(): void {
    this.graphs.release();
  }

  /** Rebuilds the RAM copy from the float vectors in SQLite and saves it (`lilo doctor --apply`). */
  async reloadCopy(): Promise<void> {
    this.ready();
    this.run(() => this.rebuild(), "rebuild the vector index from SQLite");
    this.save();
  }

  /**
   * Saves the RAM copy now (also done on close and every `saveEvery` changes).
   * Graphs (hundreds of MB) are written only with `withGraphs` — on close and
   * when a build completes; after a crash they are rebuilt in the background.
   */
  save(withGraphs = true): void {
    this.ready();
    this.unsaved = 0;
    const snapshots = this.snapshots;
    if (!snapshots) return;
    // A new snapshot replaces the old one's graph files: those not loaded yet are read first.
    this.graphs.settleAll();
    // Graphs (hundreds of MB, written by usearch on this thread) only with a whole snapshot; changes otherwise go to its log.
    const full = withGraphs && [...this.parts.values()].some((p) => p.hasGraph);
    this.run(() => snapshots.save(full), "save the vector snapshot");
  }

  /** What the snapshot wrote and cost the event loop (benchmark); undefined without a snapshot. */
  snapshotStats(): ReturnType<SnapshotStore["stats"]> | undefined {
    return this.snapshots?.stats();
  }

  /** Resolves once what the saves so far asked for is on disk (the files are written off the event loop). */
  async saved(): Promise<void> {
    await this.snapshots?.saved();
  }

  async close(): Promise<void> {
    this.graphs.stop();
    const snapshots = this.snapshots;
    try {
      if (this.meta && snapshots) {
        // Graphs are written only here (usearch writes synchronously): when they changed or the snapshot lacks them.
        const graphs = [...this.parts.values()].some((p) => p.hasGraph) && (this.unsaved > 0 || !snapshots.graphsSaved);
        await snapshots.flush(graphs);
      }
    } finally {
      await snapshots?.stop();
      this.pruner.stop();
      this.meta = undefined;
      this.parts = new Map();
    }
  }

  /** Loads the snapshot (or rebuilds from SQLite when it is missing or stale), then catches up. Returns the changes applied. */
  private load(meta: TableMeta): number {
    const table = this.table!;
    let snap: ReturnType<SnapshotStore["load"]>;
    try {
      snap = this.snapshots?.load();
    } catch (err) {
      // A damaged snapshot (or one sealed with another key) is derived data: rebuilt from SQLite below.
      this.warn?.(`The vector snapshot ${this.snapshotPath} was not used (${(err as Error).message}); the index is rebuilt from the database`);
      snap = undefined;
    }
    const h = snap?.header;
    const fits =
      snap &&
      h &&
      h.generation === meta.generation &&
      h.dimension === meta.dimension &&
      h.embedderId === meta.embedderId &&
      snap.lastSeq >= meta.prunedThrough &&
      snap.lastSeq <= table.lastSeq();
    this.dataVersion = table.dataVersion();
    if (snap && fits) {
      this.parts = new Map(snap.partitions.map((p) => [partKey(p.userId, p.store), p]));
      this.lastSeq = snap.lastSeq; // the snapshot's, or further when its log was replayed
      this.loadedFrom = "snapshot";
      for (const p of this.parts.values()) this.graphs.fit(p);
      return this.catchUp(table.changesAfter(this.lastSeq));
    }
    this.loadedFrom = "sqlite";
    return this.rebuild();
  }

  /** Reads every vector from SQLite into a fresh RAM copy. */
  private rebuild(): number {
    const table = this.table!;
    let n = 0;
    this.snapshots?.invalidate();
    this.db.transaction(() => {
      this.parts = new Map();
      this.lastSeq = table.lastSeq();
      for (const page of table.iterate()) {
        for (const v of page) this.partition(v.userId, v.store).put(v.rowId, v.vector);
        n += page.length;
      }
    })();
    for (const p of this.parts.values()) this.graphs.fit(p);
    return Math.max(n, 1);
  }

  /** Catches up when another connection committed since we last looked (cheap when nothing changed). */
  private refresh(): void {
    if (this.table!.dataVersion() === this.dataVersion) return;
    this.run(() => this.db.transaction(() => this.sync())(), "catch up with the vector table");
  }

  /** Runs a write in an IMMEDIATE transaction after applying what others committed, so no change is skipped. */
  private write(fn: () => number): void {
    let seq = 0;
    this.run(() => {
      this.db
        .transaction(() => {
          this.sync();
          seq = fn();
        })
        .immediate();
    }, "write vectors");
    // Only after the commit: a rolled-back sequence number is handed out again.
    if (seq > 0) this.lastSeq = seq;
  }

  /** Inside a transaction: applies every change committed after the last one this copy holds. */
  private sync(): void {
    const table = this.table!;
    this.dataVersion = table.dataVersion();
    const now = table.meta();
    const meta = this.meta!;
    if (!now || now.dimension !== meta.dimension || now.embedderId !== meta.embedderId) {
      throw new VectorIndexError("Another process rebuilt the vector index for another embedding model; restart Lilo.");
    }
    // Rebuilt elsewhere (`lilo reindex`), log pruned past us, or history went back (`lilo restore`): reload from SQLite.
    if (now.generation !== meta.generation || this.lastSeq < now.prunedThrough || this.lastSeq > table.lastSeq()) {
      this.meta = now;
      this.rebuild();
    } else this.catchUp(table.changesAfter(this.lastSeq));
  }

  /** Applies logged changes: each key takes its current state in SQLite. */
  private catchUp(changes: Change[]): number {
    const table = this.table!;
    const latest = new Map(changes.map((c) => [`${c.store}#${c.rowId}`, c]));
    for (const c of latest.values()) {
      const v = table.get(c.store, c.rowId);
      this.apply(c.store, c.rowId, c.userId, v?.vector);
      if (v && v.userId !== c.userId) this.apply(c.store, c.rowId, v.userId, v.vector);
    }
    if (changes.length) this.lastSeq = changes[changes.length - 1]!.seq;
    return latest.size;
  }

  private apply(store: IndexStore, rowId: number, userId: string, vector: Float32Array | undefined): void {
    this.graphs.settleAll();
    this.snapshots?.touch(userId, store, rowId);
    if (vector) {
      const p = this.partition(userId, store);
      p.put(rowId, vector);
      this.graphs.fit(p);
      return;
    }
    const p = this.parts.get(partKey(userId, store));
    if (!p?.remove(rowId)) return;
    this.graphs.fit(p);
  }

  /** Resolves once no graph is being built and no residual copy filled (benchmark, tests). */
  graphsBuilt(): Promise<void> {
    return this.graphs.built();
  }

  /** Resolves once no saved graph waits to be loaded; residual copies may still be filling (benchmark). */
  async graphsLoaded(): Promise<void> {
    while ([...this.parts.values()].some((p) => p.graphPending)) await new Promise((resolve) => setImmediate(resolve));
  }

  private afterChanges(n: number): void {
    this.unsaved += n;
    if (this.unsaved >= this.saveEvery) this.save(false);
  }

  private partition(userId: string, store: string): Partition {
    const key = partKey(userId, store);
    let p = this.parts.get(key);
    if (!p) this.parts.set(key, (p = new Partition(userId, store, this.meta!.dimension)));
    return p;
  }

  private ready(): { table: VectorTable; meta: TableMeta } {
    if (!this.table || !this.meta) throw new VectorIndexError("The vector index is not initialised; call init() first");
    return { table: this.table, meta: this.meta };
  }

  private run<T>(fn: () => T, what: string): T {
    return asIndexError(fn, what);
  }
}

const partKey = (userId: string, store: string): string => `${store}\u0000${userId}`;

function checkDimension(dimension: number): void {
  if (!Number.isInteger(dimension) || dimension <= 0) throw new VectorIndexError(`Invalid vector dimension ${dimension}`);
}
