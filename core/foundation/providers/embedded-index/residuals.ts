/**
 * What the int8 copy of a vector lost, kept for a large partition so its
 * candidates are rescored in RAM instead of from the float vectors in SQLite
 * (each a page-cache miss in a table of hundreds of MB). Per component the
 * int8 code `c` is `round(v·127/|v|)`; the residual is `round((v·127/|v| − c)·254)`,
 * so `c + r/254` holds a unit vector's component to 1/(127·254), about 3·10⁻⁵:
 * rescoring candidates this way ranks them like the floats, where the int8
 * codes alone (asymmetric, float query) lose about one true neighbour in ten
 * (figures: docs/benchmarks.md).
 * Costs one byte a dimension (384 B a vector: 38 MB per 100k), plus a byte a
 * vector saying whether it is known (a snapshot holds only the codes: rows
 * loaded from it are filled from SQLite in the background).
 */
const RESIDUAL_SCALE = 254;
/** The int8 code's scale (partition.ts quantizes a unit vector times this). */
const CODE_SCALE = 127;

export class Residuals {
  data: Int8Array;
  /** 1 where the residual of a slot is known. */
  known: Uint8Array;
  /** Slots below this were offered to the background fill (see `unknown`). */
  private cursor = 0;

  constructor(
    readonly dimension: number,
    capacity: number,
  ) {
    this.data = new Int8Array(capacity * dimension);
    this.known = new Uint8Array(capacity);
  }

  /** Bytes this copy holds. */
  get bytes(): number {
    return this.data.byteLength + this.known.byteLength;
  }

  /** Computes a slot's residual from the float vector and its int8 code at `codes[offset…]`. */
  set(slot: number, vector: Float32Array, codes: Int8Array, offset: number): void {
    const d = this.dimension;
    let norm = 0;
    for (let i = 0; i < d; i++) norm += vector[i]! * vector[i]!;
    const f = norm > 0 ? CODE_SCALE / Math.sqrt(norm) : 0;
    const base = slot * d;
    for (let i = 0; i < d; i++) {
      const r = Math.round((vector[i]! * f - codes[offset + i]!) * RESIDUAL_SCALE);
      this.data[base + i] = r > 127 ? 127 : r < -127 ? -127 : r;
    }
    this.known[slot] = 1;
  }

  /** The slot's vector changed without a float at hand (a snapshot's log): unknown until filled. */
  forget(slot: number): void {
    this.known[slot] = 0;
    if (slot < this.cursor) this.cursor = slot;
  }

  /** A row moved from one slot to another (a removal filled the hole with the last row). */
  move(from: number, to: number): void {
    const d = this.dimension;
    this.data.copyWithin(to * d, from * d, (from + 1) * d);
    this.known[to] = this.known[from]!;
    this.known[from] = 0;
    if (!this.known[to] && to < this.cursor) this.cursor = to;
  }

  /** Makes room for `capacity` slots (the partition's arrays grew). */
  grow(capacity: number): void {
    const data = new Int8Array(capacity * this.dimension);
    data.set(this.data.subarray(0, Math.min(this.data.length, data.length)));
    const known = new Uint8Array(capacity);
    known.set(this.known.subarray(0, Math.min(this.known.length, capacity)));
    this.data = data;
    this.known = known;
  }

  /** True while slots below `count` have not all been offered to the background fill. */
  pending(count: number): boolean {
    return this.cursor < count;
  }

  /** Up to `n` slots below `count` whose residual is unknown, from the lowest on. */
  unknown(count: number, n: number): number[] {
    const out: number[] = [];
    let s = Math.min(this.cursor, count);
    for (; s < count && out.length < n; s++) if (!this.known[s]) out.push(s);
    this.cursor = s;
    return out;
  }

  /** The cosine of `query` (norm `qn`) with the slot's vector rebuilt from its code and residual. */
  cosine(query: Float32Array, qn: number, codes: Int8Array, slot: number): number {
    const d = this.dimension;
    const base = slot * d;
    const res = this.data;
    let dot = 0;
    let norm = 0;
    for (let i = 0; i < d; i++) {
      const x = codes[base + i]! * RESIDUAL_SCALE + res[base + i]!;
      dot += query[i]! * x;
      norm += x * x;
    }
    return qn > 0 && norm > 0 ? dot / (qn * Math.sqrt(norm)) : 0;
  }
}
