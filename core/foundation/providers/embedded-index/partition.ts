import { Index, MetricKind, ScalarKind, exactSearch, type Matches } from "usearch";
import { Residuals } from "./residuals.ts";

/** Scale of the int8 copy: a unit vector's components times 127, rounded. */
const SCALE = 127;
/**
 * Neighbours visited per graph search unless the caller asks for a breadth of its own: a breadth that finds nearly
 * every true neighbour at 100k notes misses several in the top ten at 1M (docs/benchmarks.md). A graph is built with the smallest breadth and searched with the
 * one wanted: usearch visits max(its expansion, the number of results asked for).
 */
const GRAPH_EXPANSION_SEARCH = 1024;
/** usearch's own default: the least a search visits. */
const GRAPH_EXPANSION_MIN = 64;
const GRAPH_EXPANSION_ADD = 128;
const GRAPH_CONNECTIVITY = 16;

/** Quantizes a vector to int8 after normalising it, so int8 dot products rank like cosines. */
export function quantize(v: Float32Array, out: Int8Array = new Int8Array(v.length), offset = 0): Int8Array {
  let norm = 0;
  for (let i = 0; i < v.length; i++) norm += v[i]! * v[i]!;
  const f = norm > 0 ? SCALE / Math.sqrt(norm) : 0;
  for (let i = 0; i < v.length; i++) out[offset + i] = Math.round(v[i]! * f);
  return out;
}

/**
 * The RAM copy of one (user, store): int8 vectors in one flat array with
 * their row ids, scanned exactly with usearch's SIMD kernel (one thread: the
 * bot shares two cores). Above a size set by the index it also keeps an HNSW
 * graph (usearch, int8) and searches that instead. Both only propose
 * candidates; the index rescores them from the float vectors in SQLite.
 */
export class Partition {
  count = 0;
  /** Told when a removal moves a row to another slot (a snapshot being written needs to know). */
  onMove: ((rowId: number, from: number, to: number) => void) | undefined;
  rowIds: Float64Array;
  data: Int8Array;
  /** Searches answered through the graph (tests check that a large partition really uses it). */
  graphSearches = 0;
  private readonly slots = new Map<number, number>();
  private graph: Index | undefined;
  private building: { graph: Index; cursor: number } | undefined;
  /** A saved graph not loaded yet: searches scan exactly until `settleGraph` loads it. */
  private savedGraph: (() => void) | undefined;
  /** What the int8 codes lost, for rescoring in RAM (large partitions only: see residuals.ts). */
  private residuals: Residuals | undefined;

  constructor(
    readonly userId: string,
    readonly store: string,
    readonly dimension: number,
    capacity = 64,
  ) {
    this.rowIds = new Float64Array(capacity);
    this.data = new Int8Array(capacity * dimension);
  }

  /** Restores a partition from a snapshot's arrays (taken over, not copied). */
  static from(userId: string, store: string, dimension: number, rowIds: Float64Array, data: Int8Array): Partition {
    const p = new Partition(userId, store, dimension, 0);
    p.rowIds = rowIds;
    p.data = data;
    p.count = rowIds.length;
    for (let i = 0; i < p.count; i++) p.slots.set(rowIds[i]!, i);
    // A snapshot written in the background while rows moved may hold a row twice: keep one, never a ghost copy.
    if (p.slots.size < p.count) p.dedupe();
    return p;
  }

  /** Compacts the arrays so every row id holds exactly one slot (its last one). */
  private dedupe(): void {
    const d = this.dimension;
    let n = 0;
    for (let i = 0; i < this.count; i++) {
      const id = this.rowIds[i]!;
      if (this.slots.get(id) !== i) continue;
      if (n !== i) {
        this.rowIds[n] = id;
        this.data.copyWithin(n * d, i * d, (i + 1) * d);
      }
      this.slots.set(id, n++);
    }
    this.count = n;
  }

  /** The int8 vector of a row (a view, valid until the partition changes), or undefined. */
  int8Of(rowId: number): Int8Array | undefined {
    const slot = this.slots.get(rowId);
    return slot === undefined ? undefined : this.data.subarray(slot * this.dimension, (slot + 1) * this.dimension);
  }

  has(rowId: number): boolean {
    return this.slots.has(rowId);
  }

  get hasGraph(): boolean {
    return this.graph !== undefined;
  }

  /**
   * Notes a saved graph to load later, so the index is ready before its
   * graphs are read (hundreds of MB); `load` gives the partition its graph
   * when the file fits it.
   */
  deferGraph(load: () => void): void {
    this.savedGraph = load;
  }

  /** True while a saved graph waits to be loaded. */
  get graphPending(): boolean {
    return this.savedGraph !== undefined;
  }

  /** Loads the saved graph noted by `deferGraph`, once. */
  settleGraph(): void {
    const load = this.savedGraph;
    this.savedGraph = undefined;
    load?.();
  }

  /** Inserts or replaces the vector of a row. */
  put(rowId: number, vector: Float32Array): void {
    const slot = this.slotFor(rowId);
    quantize(vector, this.data, slot * this.dimension);
    this.residuals?.set(slot, vector, this.data, slot * this.dimension);
    this.addToGraph(slot, rowId);
  }

  /** Inserts or replaces a row's vector that is already quantized (a snapshot's change log). */
  putInt8(rowId: number, vector: Int8Array): void {
    const slot = this.slotFor(rowId);
    this.data.set(vector, slot * this.dimension);
    this.residuals?.forget(slot);
    this.addToGraph(slot, rowId);
  }

  private slotFor(rowId: number): number {
    let slot = this.slots.get(rowId);
    if (slot === undefined) {
      if (this.count === this.rowIds.length) this.grow();
      slot = this.count++;
      this.slots.set(rowId, slot);
      this.rowIds[slot] = rowId;
    }
    return slot;
  }

  private addToGraph(slot: number, rowId: number): void {
    // A graph under construction takes the row when its cursor reaches the slot, unless it has passed it already.
    const g = this.graph ?? (this.building && slot < this.building.cursor ? this.building.graph : undefined);
    if (g) {
      const key = BigInt(rowId);
      if (g.contains(key)) g.remove(key);
      g.add(key, this.vectorAt(slot), 1);
    }
  }

  /** Removes a row's vector (the last one moves into its slot). */
  remove(rowId: number): boolean {
    const slot = this.slots.get(rowId);
    if (slot === undefined) return false;
    const last = --this.count;
    if (slot !== last) {
      const moved = this.rowIds[last]!;
      this.rowIds[slot] = moved;
      this.data.copyWithin(slot * this.dimension, last * this.dimension, (last + 1) * this.dimension);
      this.slots.set(moved, slot);
      this.residuals?.move(last, slot);
      this.onMove?.(moved, last, slot);
    }
    this.slots.delete(rowId);
    this.graph?.remove(BigInt(rowId));
    const b = this.building;
    if (b) {
      if (b.graph.contains(BigInt(rowId))) b.graph.remove(BigInt(rowId));
      // The last row moved into a slot the cursor has passed: add it now or it would be missed.
      if (slot < this.count && slot < b.cursor && !b.graph.contains(BigInt(this.rowIds[slot]!)))
        b.graph.add(BigInt(this.rowIds[slot]!), this.vectorAt(slot), 1);
    }
    return true;
  }

  /**
   * Row ids of the `k` nearest int8 vectors, best first. Through a graph,
   * `breadth` neighbours are visited (at least `k`): more find the true
   * nearest ones more often and cost more.
   */
  candidates(query: Int8Array, k: number, breadth = GRAPH_EXPANSION_SEARCH): number[] {
    const n = Math.min(k, this.count);
    if (n <= 0) return [];
    if (this.graph) {
      this.graphSearches++;
      const m = this.graph.search(query, Math.min(Math.max(n, breadth), this.count), 1);
      return Array.from(m.keys.subarray(0, Math.min(n, countOf(m))), Number);
    }
    const m = exactSearch(this.data.subarray(0, this.count * this.dimension), query, this.dimension, n, MetricKind.IP, 1) as Matches;
    return Array.from(m.keys.subarray(0, countOf(m)), (slot) => this.rowIds[Number(slot)]!);
  }

  /** Row ids of the `k` nearest int8 vectors among `rowIds` (unknown ids ignored), best first: an exact scan of just those. */
  candidatesAmong(query: Int8Array, rowIds: number[], k: number): number[] {
    const slots = rowIds.flatMap((id) => {
      const s = this.slots.get(id);
      return s === undefined ? [] : [s];
    });
    const n = Math.min(k, slots.length);
    if (n <= 0) return [];
    const d = this.dimension;
    const subset = new Int8Array(slots.length * d);
    slots.forEach((s, i) => subset.set(this.data.subarray(s * d, (s + 1) * d), i * d));
    const m = exactSearch(subset, query, d, n, MetricKind.IP, 1) as Matches;
    return Array.from(m.keys.subarray(0, countOf(m)), (i) => this.rowIds[slots[Number(i)]!]!);
  }

  /** True when the partition keeps residuals (rescoring in RAM). */
  get hasResiduals(): boolean {
    return this.residuals !== undefined;
  }

  /** Bytes a residual copy of this partition takes (or would take). */
  get residualBytes(): number {
    return this.residuals?.bytes ?? this.rowIds.length * (this.dimension + 1);
  }

  /** Starts keeping residuals; rows already here are unknown until `fillResiduals` gets their floats. */
  keepResiduals(): void {
    this.residuals ??= new Residuals(this.dimension, this.rowIds.length);
  }

  dropResiduals(): void {
    this.residuals = undefined;
  }

  /** True while rows wait for their residual (the background fill is not done). */
  get residualsPending(): boolean {
    return this.residuals?.pending(this.count) ?? false;
  }

  /** Up to `n` row ids whose residual is still unknown (each offered once: see `fillResiduals`). */
  residualsToFill(n: number): number[] {
    const r = this.residuals;
    return r ? r.unknown(this.count, n).map((slot) => this.rowIds[slot]!) : [];
  }

  /** Residuals from the floats of rows (read from SQLite); a row whose code no longer matches its float is left unknown. */
  fillResiduals(floats: Map<number, Float32Array>): void {
    const r = this.residuals;
    if (!r) return;
    const d = this.dimension;
    const code = new Int8Array(d);
    for (const [rowId, v] of floats) {
      const slot = this.slots.get(rowId);
      if (slot === undefined) continue;
      quantize(v, code);
      if (code.every((c, i) => c === this.data[slot * d + i])) r.set(slot, v, this.data, slot * d);
    }
  }

  /**
   * Cosines of `query` with these rows rebuilt from code and residual; rows
   * without a known residual (or unknown here) are returned in `unknown` for
   * the caller to read as floats.
   */
  rescore(query: Float32Array, qn: number, rowIds: number[]): { scores: Map<number, number>; unknown: number[] } {
    const scores = new Map<number, number>();
    const unknown: number[] = [];
    const r = this.residuals;
    for (const id of rowIds) {
      const slot = this.slots.get(id);
      if (r && slot !== undefined && r.known[slot]) scores.set(id, r.cosine(query, qn, this.data, slot));
      else unknown.push(id);
    }
    return { scores, unknown };
  }

  /** True while a graph is being built (searches scan exactly until it is complete). */
  get buildingGraph(): boolean {
    return this.building !== undefined;
  }

  /** Starts building the HNSW graph over every vector (above the size threshold); `buildStep` does the work. */
  startGraph(): void {
    this.building = { graph: newGraph(this.dimension), cursor: 0 };
  }

  /** Adds up to `n` more vectors to the graph under construction; true once it is complete and in use. */
  buildStep(n: number): boolean {
    const b = this.building;
    if (!b) return this.graph !== undefined;
    const end = Math.min(this.count, b.cursor + n);
    if (end > b.cursor) {
      const keys = BigUint64Array.from(this.rowIds.subarray(b.cursor, end), (id) => BigInt(id));
      b.graph.add(keys, this.data.slice(b.cursor * this.dimension, end * this.dimension), 0);
    }
    b.cursor = end;
    if (b.cursor < this.count) return false;
    this.graph = b.graph;
    this.building = undefined;
    return true;
  }

  /** Drops the graph (the partition shrank below the threshold). */
  dropGraph(): void {
    this.graph = undefined;
    this.building = undefined;
    this.savedGraph = undefined;
  }

  /** Saves the graph (usearch's own format) so a start need not rebuild it. */
  saveGraph(path: string): void {
    this.graph?.save(path);
  }

  /** Loads a saved graph; false when it does not match this partition's rows. */
  loadGraph(path: string): boolean {
    const g = newGraph(this.dimension);
    g.load(path);
    if (g.size() !== this.count) return false;
    this.graph = g;
    return true;
  }

  private vectorAt(slot: number): Int8Array {
    return this.data.slice(slot * this.dimension, (slot + 1) * this.dimension);
  }

  private grow(): void {
    const cap = Math.max(64, this.rowIds.length * 2);
    const ids = new Float64Array(cap);
    ids.set(this.rowIds.subarray(0, this.count));
    const data = new Int8Array(cap * this.dimension);
    data.set(this.data.subarray(0, this.count * this.dimension));
    this.rowIds = ids;
    this.data = data;
    this.residuals?.grow(cap);
  }
}

function newGraph(dimensions: number): Index {
  return new Index({
    dimensions,
    metric: MetricKind.IP,
    quantization: ScalarKind.I8,
    connectivity: GRAPH_CONNECTIVITY,
    expansion_add: GRAPH_EXPANSION_ADD,
    expansion_search: GRAPH_EXPANSION_MIN,
    multi: false,
  });
}

function countOf(m: Matches): number {
  // Matches pads with max-uint keys when fewer were found; keep the real ones.
  let n = 0;
  while (n < m.keys.length && m.keys[n] !== 0xffffffffffffffffn) n++;
  return n;
}
