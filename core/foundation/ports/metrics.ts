/**
 * Counters an operator graphs (turn durations, model calls and tokens,
 * pushes), told to whoever serves them: the app's `/metrics` (prom-client)
 * implements this port, the core only reports events. Labels are kinds of
 * things (an adapter, a role, a "provider:model"), never a user id, a name
 * or message text.
 */
export interface Metrics {
  /** A chat turn ended (answered or failed) after `seconds`; `adapter` is the message's transport. */
  turn(event: { adapter: string; seconds: number }): void;
  /** A model call answered; tokens as the provider counted them (0 when it sent none). */
  modelCall(event: { role: string; model: string; inputTokens: number; outputTokens: number }): void;
  /** A model call failed (after the SDK's retries). */
  modelError(event: { role: string; model: string }): void;
  /** A push reached its platform. */
  pushSent(event: { adapter: string }): void;
}

/** Counts nothing: a Lilo without a metrics server (the CLI, tests, a library user who passes none). */
export const NO_METRICS: Metrics = { turn: () => undefined, modelCall: () => undefined, modelError: () => undefined, pushSent: () => undefined };
