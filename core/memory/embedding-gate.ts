import { setTimeout as delay } from "node:timers/promises";
import type { Clock } from "../foundation/ports/clock.ts";
import type { Embedder } from "../foundation/ports/embedder.ts";
import type { Logger } from "../foundation/ports/logger.ts";
import { EmbeddingModelMissingError, describeError } from "../foundation/errors.ts";
import type { EmbeddingStatus, EmbeddingStatusRecord } from "./embedding-status.ts";
import { recallLine } from "./recall-line.ts";

/** The longest wait between two tries, as a multiple of the first: a model copied in later is noticed within this. */
const MAX_BACKOFF_FACTOR = 16;

/** What the gate works with besides the embedder. */
export interface EmbeddingGateDeps {
  clock: Clock;
  logger: Logger;
  record: EmbeddingStatusRecord;
  /** The first wait before the model is tried again; it doubles with every failure, up to 16 times this. */
  retryMs: number;
  /** Where the model's files belong, named when they are missing. */
  folder: string;
  /** The vector index lacks what was written without the model: a rebuild is recorded as pending (the resumable reindex). */
  behind: { mark(): void; pending(): boolean };
}

/**
 * Whether the embedding model can make vectors. Without it (offline, the
 * files missing, the hub unreachable) Lilo still answers: recall goes by
 * words alone, writes keep their rows and mark the index as behind, and the
 * running bot tries the model again on a doubling wait (`whenUsable`); once
 * it loads, recall is by words and meaning again and the resumable reindex
 * embeds what was stored meanwhile.
 */
export class EmbeddingGate {
  private state: "untried" | "loaded" | "missing" = "untried";
  private lastError: unknown;
  private failures = 0;
  private nextTryAt = 0;
  private loading: Promise<boolean> | undefined;
  private warned = false;
  private marked = false;
  /** Set by `whenUsable`: this process keeps the index current, so its state is the one `lilo status` shows. */
  private keeping = false;

  constructor(
    private readonly embedder: Embedder,
    private readonly deps: EmbeddingGateDeps,
  ) {}

  /**
   * True when vectors can be made. The first call loads the model; after a
   * failure this answers at once, without trying again: `whenUsable` tries,
   * so a message never waits for a download that cannot succeed.
   */
  async usable(): Promise<boolean> {
    return this.state === "untried" ? this.attempt() : this.state === "loaded";
  }

  /** The model's vector length; while the model is missing, the failure that said so. */
  async dimension(): Promise<number> {
    if (!(await this.usable())) throw this.lastError;
    return this.embedder.dimension();
  }

  /** A write went without its vector: the index is behind until the reindex has run. */
  fellBehind(): void {
    if (this.marked) return;
    this.marked = true;
    this.deps.behind.mark();
  }

  /**
   * Tries the model on the doubling wait until it loads (true) or `signal`
   * stops the wait (false). The caller keeps the index current, so from now
   * on this process records the state for `lilo status`.
   */
  async whenUsable(signal: AbortSignal): Promise<boolean> {
    this.keeping = true;
    while (!(await this.usable())) {
      this.recordMissing();
      const wait = Math.max(0, this.nextTryAt - this.deps.clock.now().getTime());
      try {
        await delay(wait, undefined, { signal, ref: false });
      } catch {
        return false; // stopped while waiting
      }
      await this.attempt();
    }
    this.recordLoaded();
    return true;
  }

  /** The reindex finished: what was stored without the model has its vectors now. */
  caughtUp(): void {
    this.marked = false;
    const was = this.deps.record.read();
    if (!was || was.mode === "full") return;
    this.deps.record.write({ mode: "full", model: this.embedder.id, since: this.now() });
    this.deps.logger.info(`embedded what was stored without the embedding model: recall by words and meaning (${this.embedder.id})`);
  }

  private attempt(): Promise<boolean> {
    this.loading ??= this.embedder
      .dimension()
      .then(
        () => this.loaded(),
        (err: unknown) => this.missing(err),
      )
      .finally(() => (this.loading = undefined));
    return this.loading;
  }

  private loaded(): true {
    this.state = "loaded";
    this.failures = 0;
    if (this.keeping) this.recordLoaded();
    return true;
  }

  private missing(err: unknown): false {
    this.state = "missing";
    this.lastError = err;
    this.failures++;
    this.nextTryAt = this.deps.clock.now().getTime() + this.deps.retryMs * Math.min(2 ** (this.failures - 1), MAX_BACKOFF_FACTOR);
    if (!this.warned) {
      // Once per process: every message recalls by words, which is not news after the first.
      this.warned = true;
      this.deps.logger.warn(recallLine(this.missingStatus()));
    }
    if (this.keeping) this.recordMissing();
    return false;
  }

  private missingStatus(): EmbeddingStatus & { mode: "words-only" } {
    const err = this.lastError;
    const known = err instanceof EmbeddingModelMissingError;
    return {
      mode: "words-only",
      model: this.embedder.id,
      reason: known ? err.reason : describeError(err),
      folder: known ? err.folder : this.deps.folder,
      since: this.now(),
    };
  }

  /** Writes "words only" unless it is recorded already for the same reason. */
  private recordMissing(): void {
    const was = this.deps.record.read();
    const now = this.missingStatus();
    if (was?.mode === "words-only" && was.model === now.model && was.reason === now.reason) return;
    this.deps.record.write(now);
  }

  /** After words only: full recall again, catching up first when writes went without vectors meanwhile. */
  private recordLoaded(): void {
    const was = this.deps.record.read();
    if (was?.mode !== "words-only") return;
    const behind = this.deps.behind.pending();
    this.deps.record.write({ mode: behind ? "catching-up" : "full", model: this.embedder.id, since: this.now() });
    this.deps.logger.info(
      `embedding model ${this.embedder.id} loaded: recall by words and meaning again` +
        (behind ? "; embedding what was stored without it in the background" : ""),
    );
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}
