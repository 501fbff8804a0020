/**
 * Exact rescoring of the candidates a partition proposes: cosines with the
 * float vectors in SQLite, or, where the partition keeps residuals
 * (residuals.ts, large partitions), with the vectors rebuilt in RAM; only
 * rows whose residual is not known yet are read from SQLite.
 */
import type { IndexStore } from "../../ports/vector-index.ts";
import type { VectorTable } from "../../store/vectors/vector-table.ts";
import type { Partition } from "./partition.ts";

/**
 * Each candidate still stored with its cosine to `query`, in the order of
 * `ids` (equal scores keep the candidates' rank); rows gone from SQLite are
 * left out.
 */
export function rescore(table: VectorTable, part: Partition, store: IndexStore, query: Float32Array, ids: number[]): [number, number][] {
  const qn = norm(query);
  const cosine = (v: Float32Array) => (qn > 0 ? dot(query, v) / (qn * norm(v)) : 0);
  if (!part.hasResiduals) return [...table.floats(store, ids)].map(([id, v]) => [id, cosine(v)]);
  const { scores, unknown } = part.rescore(query, qn, ids);
  const floats = unknown.length ? table.floats(store, unknown) : undefined;
  const out: [number, number][] = [];
  for (const id of ids) {
    const s = scores.get(id);
    if (s !== undefined) out.push([id, s]);
    else {
      const v = floats?.get(id);
      if (v) out.push([id, cosine(v)]);
    }
  }
  return out;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function norm(v: Float32Array): number {
  return Math.sqrt(dot(v, v));
}
