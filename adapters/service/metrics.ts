import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { Lilo, Metrics } from "../../core/index.ts";

/**
 * Lilo's counters in the Prometheus text format (`GET /metrics`), one
 * registry per process. The core tells events through the `Metrics` port;
 * the backlog gauges are read from Lilo when scraped. Labels are an adapter,
 * a role or a "provider:model": never a user id, a name or message text.
 */
export interface PromMetrics {
  /** The port the core reports to (passed to `createLilo` as `metrics`). */
  port: Metrics;
  /** Reads the backlog from this Lilo at each scrape. */
  watch(lilo: Lilo): void;
  /** The whole text page. */
  text(): Promise<string>;
  contentType: string;
}

/** A fresh registry with Lilo's metrics and Node's process metrics (CPU, memory, event loop lag, handles). */
export function promMetrics(): PromMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const turns = new Histogram({
    name: "lilo_turn_duration_seconds",
    help: "Duration of a chat turn, from the stored message to the stored answer",
    labelNames: ["adapter"],
    buckets: [0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120],
    registers: [registry],
  });
  const calls = new Counter({ name: "lilo_model_calls_total", help: "Answered model calls", labelNames: ["role", "model"], registers: [registry] });
  const tokens = new Counter({
    name: "lilo_model_tokens_total",
    help: "Tokens of answered model calls as the provider counted them",
    labelNames: ["role", "model", "kind"],
    registers: [registry],
  });
  const errors = new Counter({ name: "lilo_model_errors_total", help: "Failed model calls", labelNames: ["role", "model"], registers: [registry] });
  const pushes = new Counter({ name: "lilo_push_sent_total", help: "Pushes that reached their platform", labelNames: ["adapter"], registers: [registry] });
  let lilo: Lilo | undefined;
  // Read at scrape time: one count query each, and nothing while Lilo is closed.
  new Gauge({
    name: "lilo_inbox_pending",
    help: "User messages waiting for their answer",
    registers: [registry],
    collect() {
      if (lilo?.health.writable()) this.set(lilo.health.pending().inbox);
    },
  });
  new Gauge({
    name: "lilo_jobs_pending",
    help: "After-reply jobs (extraction, message vectors) not yet done",
    registers: [registry],
    collect() {
      if (lilo?.health.writable()) this.set(lilo.health.pending().jobs);
    },
  });
  return {
    port: {
      turn: (e) => turns.observe({ adapter: e.adapter }, e.seconds),
      modelCall: (e) => {
        calls.inc({ role: e.role, model: e.model });
        tokens.inc({ role: e.role, model: e.model, kind: "input" }, e.inputTokens);
        tokens.inc({ role: e.role, model: e.model, kind: "output" }, e.outputTokens);
      },
      modelError: (e) => errors.inc({ role: e.role, model: e.model }),
      pushSent: (e) => pushes.inc({ adapter: e.adapter }),
    },
    watch: (l) => void (lilo = l),
    text: () => registry.metrics(),
    contentType: registry.contentType,
  };
}
