/**
 * Which large partitions keep residuals (residuals.ts) and how they are
 * filled: every partition's residuals together stay within the budget
 * (`LILO_VECTOR_RESIDUAL_MB`); rows whose residual is unknown (loaded from a
 * snapshot, which holds only the int8 codes) get it from their floats.
 */
import type { Partition } from "./partition.ts";
import { RESIDUAL_CHUNK } from "./options.ts";

/** True when `p`'s residuals fit beside those the other partitions keep. */
export function residualsFit(p: Partition, parts: Iterable<Partition>, budgetBytes: number): boolean {
  let used = 0;
  for (const q of parts) if (q !== p && q.hasResiduals) used += q.residualBytes;
  return p.residualBytes <= budgetBytes - used;
}

/** Fills up to `n` unknown residuals of `p` (RESIDUAL_CHUNK at a time) from the floats `read` returns. */
export function fillResiduals(p: Partition, n: number, read: (ids: number[]) => Map<number, Float32Array>): void {
  for (let left = n; left > 0 && p.residualsPending; left -= RESIDUAL_CHUNK) {
    const ids = p.residualsToFill(Math.min(left, RESIDUAL_CHUNK));
    if (ids.length) p.fillResiduals(read(ids));
  }
}
