import { Index, MetricKind, ScalarKind, exactSearch, type Matches } from "usearch";

/** Scale of the int8 copy: a unit vector's components times 127, rounded. */
const SCALE = 127;
/** Neighbours visited per graph search; with float rescoring this gives recall@10 ≥ 0.99 at 100k (`npm run bench`). */
const GRAPH_EXPANSION_SEARCH = 512;
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
  rowIds: Float64Array;
  data: Int8Array;
  private readonly slots = new Map<number, number>();
  private graph: Index | undefined;

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
    return p;
  }

  has(rowId: number): boolean {
    return this.slots.has(rowId);
  }

  get hasGraph(): boolean {
    return this.graph !== undefined;
  }

  /** Inserts or replaces the vector of a row. */
  put(rowId: number, vector: Float32Array): void {
    let slot = this.slots.get(rowId);
    if (slot === undefined) {
      if (this.count === this.rowIds.length) this.grow();
      slot = this.count++;
      this.slots.set(rowId, slot);
      this.rowIds[slot] = rowId;
    }
    quantize(vector, this.data, slot * this.dimension);
    if (this.graph) {
      const key = BigInt(rowId);
      if (this.graph.contains(key)) this.graph.remove(key);
      this.graph.add(key, this.vectorAt(slot), 1);
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
    }
    this.slots.delete(rowId);
    this.graph?.remove(BigInt(rowId));
    return true;
  }

  /** Row ids of the `k` nearest int8 vectors, best first. */
  candidates(query: Int8Array, k: number): number[] {
    const n = Math.min(k, this.count);
    if (n <= 0) return [];
    if (this.graph) {
      const m = this.graph.search(query, n, 1);
      return Array.from(m.keys.subarray(0, countOf(m)), Number);
    }
    const m = exactSearch(this.data.subarray(0, this.count * this.dimension), query, this.dimension, n, MetricKind.IP, 1) as Matches;
    return Array.from(m.keys.subarray(0, countOf(m)), (slot) => this.rowIds[Number(slot)]!);
  }

  /** Builds the HNSW graph over every vector (above the size threshold). */
  buildGraph(): void {
    const g = new Index({
      dimensions: this.dimension,
      metric: MetricKind.IP,
      quantization: ScalarKind.I8,
      connectivity: GRAPH_CONNECTIVITY,
      expansion_add: GRAPH_EXPANSION_ADD,
      expansion_search: GRAPH_EXPANSION_SEARCH,
      multi: false,
    });
    if (this.count > 0) {
      const keys = BigUint64Array.from(this.rowIds.subarray(0, this.count), (id) => BigInt(id));
      g.add(keys, this.data.slice(0, this.count * this.dimension), 0);
    }
    this.graph = g;
  }

  /** Drops the graph (the partition shrank below the threshold). */
  dropGraph(): void {
    this.graph = undefined;
  }

  /** Saves the graph (usearch's own format) so a start need not rebuild it. */
  saveGraph(path: string): void {
    this.graph?.save(path);
  }

  /** Loads a saved graph; false when it does not match this partition's rows. */
  loadGraph(path: string): boolean {
    const g = new Index({ dimensions: this.dimension, metric: MetricKind.IP, quantization: ScalarKind.I8, connectivity: GRAPH_CONNECTIVITY, expansion_add: GRAPH_EXPANSION_ADD, expansion_search: GRAPH_EXPANSION_SEARCH, multi: false });
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
  }
}

function countOf(m: Matches): number {
  // Matches pads with max-uint keys when fewer were found; keep the real ones.
  let n = 0;
  while (n < m.keys.length && m.keys[n] !== 0xffffffffffffffffn) n++;
  return n;
}
