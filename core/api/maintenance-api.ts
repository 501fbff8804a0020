import type { Embedder } from "../foundation/ports/embedder.ts";
import type { VectorIndex, VectorIndexState } from "../foundation/ports/vector-index.ts";
import type { Memory } from "../memory/memory.ts";
import type { ModelProblems } from "../foundation/store/model-problems.ts";
import type { Clock } from "../foundation/ports/clock.ts";
import type { JobsStore } from "../foundation/store/jobs.ts";
import type { EmbeddingGate } from "../memory/embedding-gate.ts";
import type { EmbeddingStatus, EmbeddingStatusRecord } from "../memory/embedding-status.ts";
import {
  checkConsistency,
  pendingReindex,
  reindex,
  repairConsistency,
  type ConsistencyReport,
  type ReindexDeps,
  type ReindexOutcome,
  type ReindexProgress,
} from "../memory/maintenance.ts";

/** `lilo doctor` and `lilo reindex`: SQLite (the truth) against the derived vector index. */
export interface MaintenanceApi {
  check(): Promise<ConsistencyReport>;
  repair(report: ConsistencyReport): Promise<void>;
  /**
   * Rebuilds the index from SQLite, continuing an interrupted reindex of the
   * same model where it stopped; throws ReindexBusyError while another live
   * process runs it. `signal` stops it between batches (it stays resumable).
   */
  reindex(onProgress?: (done: number, total: number) => void, signal?: AbortSignal): Promise<ReindexOutcome>;
  /** Finishes a reindex a crash interrupted (the bot's start, in the background); undefined when there is none. */
  resumeReindex(signal?: AbortSignal): Promise<ReindexOutcome | undefined>;
  /** How far an interrupted reindex got, if one is pending. */
  pendingReindex(): ReindexProgress | undefined;
  /** The derived copy of the embedded index (entries, last change applied, rebuild needed); undefined for other backends. */
  indexState(): Promise<VectorIndexState | undefined>;
  /** Rebuilds the embedded index's RAM copy from SQLite (no re-embedding); false for other backends. */
  reloadIndex(): Promise<boolean>;
  /** Malformed model answers so far, by role and outcome ("extraction:repaired" → n). */
  modelProblems(): Record<string, number>;
  /** How the bot recalls (by words only while the embedding model is missing); undefined when the model never went missing. */
  recallState(): EmbeddingStatus | undefined;
  /**
   * Resolves true once the embedding model is loaded, trying it again on a
   * doubling wait while it is missing (the running bot, in the background);
   * false when `signal` stopped the wait. From the first call on, this
   * process records the state `recallState` reads.
   */
  whenEmbedderReady(signal: AbortSignal): Promise<boolean>;
}

/** The embedding model's gate and the record of the bot's way of recall. */
interface RecallParts {
  gate: EmbeddingGate;
  record: EmbeddingStatusRecord;
}

/** Builds the maintenance use cases over the memory service and its index. */
export function maintenanceApi(
  memory: Memory,
  index: VectorIndex,
  embedder: Embedder,
  problems: ModelProblems,
  jobs: JobsStore,
  clock: Clock,
  messages: ReindexDeps["messages"] | undefined,
  recall: RecallParts,
): MaintenanceApi {
  const deps: ReindexDeps = { memory, index, embedder, jobs, now: () => clock.now().toISOString(), ...(messages ? { messages } : {}) };
  // A finished reindex gave every row written without the model its vector.
  const settled = (outcome: ReindexOutcome | undefined) => {
    if (outcome?.finished) recall.gate.caughtUp();
    return outcome;
  };
  return {
    check: () => checkConsistency(memory, index),
    repair: (report) => repairConsistency(memory, index, embedder, report),
    reindex: async (onProgress, signal) => settled(await reindex(deps, { onProgress, signal }))!,
    resumeReindex: async (signal) => settled(await reindex(deps, { signal, onlyResume: true })),
    pendingReindex: () => pendingReindex(jobs),
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
    recallState: () => recall.record.read(),
    whenEmbedderReady: (signal) => recall.gate.whenUsable(signal),
  };
}
