import type { Embedder } from "../../core/foundation/ports/embedder.ts";

/**
 * An embedder whose vectors the test chooses, for exact similarity scores.
 *
 * Texts given to `set` return that vector (normalised). Every other text gets
 * its own basis vector, handed out from the last dimension downwards in the
 * order texts are first seen: unknown texts are exactly orthogonal to each
 * other and to chosen vectors that live in the low dimensions (build those
 * with `basisVector(dim, 0..)` and `vectorWithCosine`), so they never score
 * as accidentally similar. Same instance + same text → same vector.
 */
export class ControlledEmbedder implements Embedder {
  readonly id: string;
  /** Every `embed` call's texts, for asserting batching and caching. */
  readonly calls: string[][] = [];
  private readonly dim: number;
  private readonly chosen = new Map<string, Float32Array>();
  private readonly unknown = new Map<string, Float32Array>();

  /** `id` may name a real model, so that model's thresholds apply (core/memory/thresholds.ts). */
  constructor(dim = 384, id?: string) {
    if (!Number.isInteger(dim) || dim < 2) throw new RangeError(`dimension must be an integer >= 2, got ${dim}`);
    this.dim = dim;
    this.id = id ?? `controlled-${dim}`;
  }

  /** Fixes the vector for `text` (normalised to unit length). Returns this for chaining. */
  set(text: string, vector: number[]): this {
    if (vector.length !== this.dim) throw new RangeError(`vector for "${text}" has ${vector.length} dims, expected ${this.dim}`);
    this.chosen.set(text, Float32Array.from(normalize(vector)));
    return this;
  }

  async dimension(): Promise<number> {
    return this.dim;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    this.calls.push([...texts]);
    // Copies, so a caller mutating a result cannot change later answers.
    return texts.map((t) => (this.chosen.get(t) ?? this.unknownVector(t)).slice());
  }

  private unknownVector(text: string): Float32Array {
    let v = this.unknown.get(text);
    if (!v) {
      if (this.unknown.size >= this.dim) {
        throw new RangeError(`ControlledEmbedder(${this.dim}) ran out of orthogonal vectors for unknown texts; use a larger dim`);
      }
      v = Float32Array.from(basisVector(this.dim, this.dim - 1 - this.unknown.size));
      this.unknown.set(text, v);
    }
    return v;
  }
}

/** Unit vector along axis `i` of a `dim`-dimensional space. */
export function basisVector(dim: number, i: number): number[] {
  if (!Number.isInteger(i) || i < 0 || i >= dim) throw new RangeError(`axis ${i} outside 0..${dim - 1}`);
  const v = new Array<number>(dim).fill(0);
  v[i] = 1;
  return v;
}

/**
 * A unit vector whose cosine with `base` is exactly `cos` (up to float
 * rounding): cos·b̂ + sin·w, with w a unit vector orthogonal to b̂.
 *
 * w comes from the standard axis where `base` is smallest (Gram–Schmidt), so
 * for a base in the low dimensions w stays low too. `direction` picks the
 * next-smallest axes instead: two results with different directions from a
 * base with zeros there have cosine cos₁·cos₂ with each other, not ~1.
 */
export function vectorWithCosine(base: number[], cos: number, direction = 0): number[] {
  if (!(cos >= -1 && cos <= 1)) throw new RangeError(`cosine must be within [-1, 1], got ${cos}`);
  const b = normalize(base);
  // Stable sort: among equal |b_i| (typically zeros) the lowest index comes first.
  const axes = b.map((x, i) => [Math.abs(x), i] as const).sort((p, q) => p[0] - q[0]);
  const axis = axes[direction]?.[1];
  if (axis === undefined) throw new RangeError(`direction ${direction} outside 0..${b.length - 1}`);
  const e = basisVector(b.length, axis);
  const w = normalize(e.map((x, i) => x - b[axis]! * b[i]!));
  const sin = Math.sqrt(1 - cos * cos);
  return b.map((x, i) => cos * x + sin * w[i]!);
}

import { cosine } from "../../core/foundation/util/vector.ts";
export { cosine };

function normalize(v: number[]): number[] {
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  if (!(norm > 0) || !Number.isFinite(norm)) throw new RangeError("cannot normalise a zero or non-finite vector");
  return v.map((x) => x / norm);
}
