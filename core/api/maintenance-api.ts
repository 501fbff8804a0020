import type { Embedder } from "../foundation/ports/embedder.ts";
import type { VectorIndex, VectorIndexState } from "../foundation/ports/vector-index.ts";
import type { Memory } from "../memory/memory.ts";
import type { ModelProblems } from "../foundation/store/model-problems.ts";
import { checkConsistency, reindex, repairConsistency, type ConsistencyReport } from "../memory/maintenance.ts";

/** `lilo doctor` and `lilo reindex`: SQLite (the truth) against the derived vector index. */
export interface MaintenanceApi {
  check(): Promise<ConsistencyReport>;
  repair(report: ConsistencyReport): Promise<void>;
  reindex(onProgress?: (done: number, total: number) => void): Promise<number>;
  /** The derived copy of the embedded index (entries, last change applied, rebuild needed); undefined for other backends. */
  indexState(): Promise<VectorIndexState | undefined>;
  /** Rebuilds the embedded index's RAM copy from SQLite (no re-embedding); false for other backends. */
  reloadIndex(): Promise<boolean>;
  /** Malformed model answers so far, by role and outcome ("extraction:repaired" → n). */
  modelProblems(): Record<string, number>;
}

/** Builds the maintenance use cases over the memory service and its index. */
export function maintenanceApi(memory: Memory, index: VectorIndex, embedder: Embedder, problems: ModelProblems): MaintenanceApi {
  return {
    check: () => checkConsistency(memory, index),
    repair: (report) => repairConsistency(memory, index, embedder, report),
    reindex: (onProgress) => reindex(memory, index, embedder, onProgress),
    indexState: async () => {
      await memory.init();
      return index.copyState?.();
    },
    reloadIndex: async () => {
      await memory.init();
      if (!index.reloadCopy) return false;
      await index.reloadCopy();
      return true;
    },
    modelProblems: () => problems.counts(),
  };
}
