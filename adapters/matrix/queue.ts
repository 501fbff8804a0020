import { describeError, type Logger } from "../../core/index.ts";

/**
 * One promise chain per room: the events of a room are handled one after the
 * other (answers keep the order of the messages), while different rooms run
 * at the same time. A failed job is logged and does not stop the chain.
 */
export class RoomQueue {
  private readonly chains = new Map<string, Promise<void>>();

  constructor(private readonly logger: Logger) {}

  /** Queues `job` behind the room's earlier jobs. */
  run(roomId: string, job: () => Promise<void>): void {
    const next = (this.chains.get(roomId) ?? Promise.resolve())
      .then(job)
      .catch((err: unknown) => this.logger.error("matrix event failed", { roomId, error: describeError(err) }));
    this.chains.set(roomId, next);
    void next.then(() => {
      if (this.chains.get(roomId) === next) this.chains.delete(roomId);
    });
  }

  /** Resolves when every queued job has finished (on stop, before the database closes). */
  async drain(): Promise<void> {
    while (this.chains.size > 0) await Promise.all([...this.chains.values()]);
  }
}
