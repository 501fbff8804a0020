import type { Partition } from "./partition.ts";
import { fillResiduals, residualsFit } from "./residual-budget.ts";
import { RESIDUAL_CHUNK } from "./options.ts";

/** How the index keeps its HNSW graphs and residual copies (options.ts has the defaults). */
export interface GraphUpkeepSettings {
  graphMinSize: number;
  messageGraphMinSize: number;
  graphBuild: "background" | "inline";
  graphChunk: number;
  /** Bytes all partitions' residual copies may take together. */
  residualBudget: number;
}

/**
 * Decides for each partition whether it has a graph and a residual copy, and
 * builds them: at once (`inline`) or a chunk at a time between other work,
 * since a graph over 500k vectors takes minutes and the bot must keep
 * answering (by exact scan) meanwhile. Graphs saved with the snapshot are
 * loaded the same way, one partition per turn of the event loop after the
 * start, so the index answers (by exact scan) before they are read; the
 * first change to the index loads every one still waiting, so a change
 * never meets a graph that misses it.
 */
export class GraphUpkeep {
  /** Graphs started since start; one loaded from its file is not built again (tests check that). */
  builds = 0;
  private timer: NodeJS.Immediate | undefined;
  private readonly waiters: (() => void)[] = [];
  /** Whether a partition may still wait for its saved graph (spares every change a look at each partition). */
  private savedWaiting = false;
  /** Held: background work waits for `release` (the bot's start takes the CPU first). */
  private held = false;

  constructor(
    private readonly parts: () => Iterable<Partition>,
    /** The float vectors of `ids` in `p`'s store, for its residual copy. */
    private readonly floats: (p: Partition, ids: number[]) => Map<number, Float32Array>,
    private readonly settings: GraphUpkeepSettings,
    /** Told why a saved graph could not be loaded (it is built again). */
    private readonly warn?: (message: string) => void,
    /** Told when a saved graph is in use. */
    private readonly debug?: (message: string) => void,
  ) {}

  /** Starts a graph at the threshold, drops it well below (no flapping); with a graph, residuals while they fit the budget. */
  fit(p: Partition): void {
    if (p.graphPending) {
      if (this.settings.graphBuild === "inline") return this.settle(p);
      // Its saved graph is read later; the residual copy is kept as for a graph in use.
      this.savedWaiting = true;
      this.fitResiduals(p);
      return this.schedule();
    }
    const min = p.store === "messages" ? this.settings.messageGraphMinSize : this.settings.graphMinSize;
    if (!p.hasGraph && !p.buildingGraph && p.count >= min) {
      p.startGraph();
      this.builds++;
      if (this.settings.graphBuild === "inline") p.buildStep(Number.POSITIVE_INFINITY);
      else this.schedule();
    } else if ((p.hasGraph || p.buildingGraph) && p.count < min / 2) p.dropGraph();
    if (p.hasGraph || p.buildingGraph) this.fitResiduals(p);
    else p.dropResiduals();
  }

  /** Loads every saved graph still waiting, now (before a change to the index). */
  settleAll(): void {
    if (!this.savedWaiting) return;
    this.savedWaiting = false;
    for (const p of this.parts()) if (p.graphPending) this.settle(p);
  }

  /** Loads `p`'s saved graph, then fits it as any other; one that cannot be loaded is built again. */
  private settle(p: Partition): void {
    try {
      p.settleGraph();
      if (p.hasGraph) this.debug?.(`The saved vector graph of a ${p.store} partition is in use (${p.count} vectors)`);
    } catch (err) {
      this.warn?.(`A saved vector graph (${p.store}) could not be loaded (${(err as Error).message}); it is built again`);
    }
    this.fit(p);
  }

  /** Resolves once no graph is being loaded or built and no residual copy filled (benchmark, tests). */
  built(): Promise<void> {
    if (!this.pending().length) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Background work waits until `release`; what must happen before a change (`settleAll`) still does. */
  hold(): void {
    this.held = true;
  }

  /** Begins the background work held since `hold`. */
  release(): void {
    if (!this.held) return;
    this.held = false;
    if (this.pending().length) this.schedule();
  }

  /** Stops the background work and releases whoever waits for it. */
  stop(): void {
    if (this.timer) clearImmediate(this.timer);
    this.timer = undefined;
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  /** Keeps residuals for a large partition while every partition's together fit the budget (filled in the background). */
  private fitResiduals(p: Partition): void {
    const fits = residualsFit(p, this.parts(), this.settings.residualBudget);
    if (p.hasResiduals && !fits) p.dropResiduals();
    if (p.hasResiduals || !fits) return;
    p.keepResiduals();
    if (this.settings.graphBuild === "inline") this.fill(p, Number.POSITIVE_INFINITY);
    else this.schedule();
  }

  private fill(p: Partition, n: number): void {
    fillResiduals(p, n, (ids) => this.floats(p, ids));
  }

  private pending(): Partition[] {
    return [...this.parts()].filter((p) => p.graphPending || p.buildingGraph || p.residualsPending);
  }

  private schedule(): void {
    if (this.timer || this.held) return;
    this.timer = setImmediate(() => {
      this.timer = undefined;
      const waiting = this.pending();
      const saved = waiting.find((p) => p.graphPending);
      if (saved) this.settle(saved);
      else
        for (const p of waiting) {
          if (p.buildingGraph) p.buildStep(this.settings.graphChunk);
          else this.fill(p, RESIDUAL_CHUNK);
        }
      if (this.pending().length) this.schedule();
      else {
        // Not saved here: usearch writes a graph synchronously (a stall of seconds at millions); close() saves it.
        for (const resolve of this.waiters.splice(0)) resolve();
      }
    });
    // Not unref'd: an unref'd immediate waits for some other event to wake the loop. close() stops the build.
  }
}
