/**
 * The running Lilo's health and counters: every chat turn timed for
 * `/metrics` and remembered for `/healthz`, the inbox's and the jobs'
 * backlog, and whether the database takes writes.
 */
import { performance } from "node:perf_hooks";
import type { Clock } from "../../foundation/ports/clock.ts";
import type { Metrics } from "../../foundation/ports/metrics.ts";
import type { Db } from "../../foundation/store/db.ts";
import { canWrite } from "../../foundation/store/db-health.ts";
import type { IncomingMessage, TurnOptions, TurnResult } from "../../conversation/turn/types.ts";
import type { HealthApi } from "../health-api.ts";
import type { Stores } from "./stores.ts";

/** The chat turn with its timing, and the health use cases. */
export interface Health {
  handleMessage(message: IncomingMessage, options?: TurnOptions): Promise<TurnResult>;
  health: HealthApi;
}

/** Wraps `handle` (the chat turn) so each turn's duration reaches `metrics`, labelled by its adapter only. */
export function wireHealth(db: Db, clock: Clock, stores: Pick<Stores, "inbox" | "jobs">, metrics: Metrics, handle: Health["handleMessage"]): Health {
  let lastTurnAt: string | undefined;
  return {
    handleMessage: async (message, options) => {
      const started = performance.now();
      try {
        return await handle(message, options);
      } finally {
        metrics.turn({ adapter: message.transport ?? "library", seconds: (performance.now() - started) / 1000 });
        lastTurnAt = clock.now().toISOString();
      }
    },
    health: {
      lastTurnAt: () => lastTurnAt,
      pending: () => (db.open ? { inbox: stores.inbox.pendingCount(), jobs: stores.jobs.counts().pending ?? 0 } : { inbox: 0, jobs: 0 }),
      writable: () => canWrite(db),
    },
  };
}
