import type { PushMessage, PushTarget, Transport } from "../foundation/ports/transport.ts";
import type { AfterDelivery, PushLogEntry, PushOutcome } from "../background/push/push.ts";

/** Pushes Lilo sends on her own: transports, opt-in per user, the queue and its log (docs/spec.md §9). */
export interface PushApi {
  /** Called by each adapter when it starts: pushes for its platform go through `transport`. */
  registerTransport(transport: Transport): void;
  /** The adapter stopped: its platform's pushes wait in the outbox. */
  unregisterTransport(name: string): void;
  /** Pushes for `userId` go to this chat from now on. */
  optIn(userId: string, target: PushTarget): void;
  /** No pushes for `userId` until the next opt-in. */
  optOut(userId: string): void;
  /** Where pushes for a user go, if they opted in. */
  target(userId: string): PushTarget | undefined;
  /** Are pushes held back now (quiet hours)? Callers skip the model call for a push that would be dropped. */
  quietNow(): boolean;
  /** Sends a push (respecting quiet hours unless `force`), and logs the outcome. */
  send(userId: string, message: PushMessage, opts?: { force?: boolean; after?: AfterDelivery }): Promise<PushOutcome>;
  /** Delivers pending outbox rows now and every `intervalMs`: in the process that has the chat connections (the bot). */
  startDelivery(intervalMs: number): void;
  /** Stops the outbox delivery; waits for a delivery under way. */
  stopDelivery(): Promise<void>;
  /** Delivers every pending outbox row once (one pass at a time). */
  deliverPending(): Promise<void>;
  /** How many pushes wait in the outbox for the running bot. */
  queued(): number;
  /** The push log, newest first; one user's entries, or everyone's without `userId`. */
  history(userId?: string, limit?: number): PushLogEntry[];
}
