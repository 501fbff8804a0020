/**
 * The embedded index's options and the defaults behind them, with the
 * measurements that chose them (`npm run bench`).
 */
import type { SnapshotStoreOptions } from "./snapshot-store.ts";
import type { GraphFilesOptions } from "./graph-files.ts";
import type { DataKey } from "../../store/data-key.ts";

export interface EmbeddedIndexOptions extends SnapshotStoreOptions, GraphFilesOptions {
  /** Where the RAM copy is saved; default `<database file>.vectors`, none for an in-memory database; null = never. */
  snapshotPath?: string | null;
  /**
   * The key of an encrypted database: the snapshot and its log are sealed with a key derived from it (seal.ts).
   * Without it, beside an encrypted database, no snapshot is kept (it would hold the vectors in plain). The graph
   * files are sealed too when `graphScratchDir` is a folder in RAM (graph-files.ts).
   */
  dataKey?: DataKey;
  /**
   * Told why a snapshot on disk was not used (another key, altered, a plain leftover; the index is rebuilt from
   * SQLite), or a graph file was not saved or not used (the graph is built again).
   */
  warn?: (message: string) => void;
  /** A (user, store) with at least this many vectors is searched through an HNSW graph instead of an exact scan. */
  graphMinSize?: number;
  /** The same for a user's chat-message vectors (store "messages"), which get a graph much earlier. */
  messageGraphMinSize?: number;
  /** A message graph visits this many times the candidates it proposes (see MESSAGE_GRAPH_BREADTH). */
  messageGraphBreadth?: number;
  /** Candidates taken from the int8 copy before exact float rescoring (at least 1.5 × k). */
  rescoreDepth?: number;
  /** Save the changes (appended to the snapshot's log) after this many (also done on close). */
  saveEvery?: number;
  /** Log entries kept behind a snapshot, so another process a little behind catches up without a reload. */
  keepLog?: number;
  /** "background" (default): graphs are built a chunk at a time while searches scan exactly; "inline": at once. */
  graphBuild?: "background" | "inline";
  /** Vectors per background build step. */
  graphChunk?: number;
  /**
   * Background work (saved graphs loaded, graphs built, residual copies filled) waits for `startUpkeep()`: the bot
   * holds it until its chats are connected, so its start does not share the CPU with work that can come after.
   */
  holdUpkeep?: boolean;
  /**
   * RAM (MB) that partitions with a graph may use for residuals, so their candidates are rescored in RAM instead
   * of from SQLite (residuals.ts: 385 bytes a 384-dimension vector, 38.5 MB per 100k); 0 = always from SQLite.
   */
  residualBudgetMb?: number;
}

/**
 * Default size above which a partition gets a graph. Up to a million vectors the exact int8 scan with rescoring
 * finds every true neighbour at a p95 inside the graph's own range, while the graph takes minutes to build and
 * misses some: exact through 1M, the graph beyond (figures: docs/benchmarks.md).
 */
export const DEFAULT_GRAPH_MIN_SIZE = 2_000_000;
/**
 * The same for chat messages. A turn asks the index for 100 of them (150 int8 candidates); a message graph visits
 * MESSAGE_GRAPH_MIN_BREADTH neighbours and proposes as many candidates as the scan, rescored in RAM (residuals.ts)
 * within the residual budget. The scan's cost grows with the log and the graph's hardly: from about 100k
 * messages the graph's candidates cost less than the scan's and agree with it on nearly every top-ten hit
 * (figures: docs/benchmarks.md).
 */
export const DEFAULT_MESSAGE_GRAPH_MIN_SIZE = 100_000;
export const DEFAULT_RESCORE_DEPTH = 40;
export const GRAPH_DEPTH_FACTOR = 2.5;
/** At most this many extra candidates from a notes graph: each is a float read. */
export const GRAPH_EXTRA_MAX = 150;
/**
 * A message graph visits this many times the candidates it proposes (the best of a wider search are the true
 * nearest more often) and proposes only as many as the exact scan. A turn asks for 100 (150 candidates): it visits
 * the floor below. The graph's search is most of what a 100k turn costs beyond a 1k turn, and its cost follows the
 * breadth.
 */
export const MESSAGE_GRAPH_BREADTH = 4;
/**
 * ... and at least this many: the narrowest breadth whose top ten, after rescoring 150 candidates, still agrees
 * with the exact float ranking clearly above the 0.99 the benchmark asks. Below it recall falls faster than the
 * cost does (figures: docs/benchmarks.md).
 */
export const MESSAGE_GRAPH_MIN_BREADTH = 640;
/** Default of `residualBudgetMb`: a chat log of about 650k messages (384 dimensions), or several users' of 100k. */
export const DEFAULT_RESIDUAL_BUDGET_MB = 256;
/** Float vectors read per background step to fill a residual copy (1,024: a few ms of SQLite reads). */
export const RESIDUAL_CHUNK = 1024;
/** Vectors added to a graph under construction per step (a few tens of ms of work on 2 cores). */
export const GRAPH_CHUNK = 256;
