import type { Db } from "../../foundation/store/db.ts";
import type { Clock } from "../../foundation/ports/clock.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import type { PushMessage, PushTarget, Transport } from "../../foundation/ports/transport.ts";
import { describeError } from "../../foundation/errors.ts";
import { inQuietHours, type QuietHours } from "../../foundation/util/quiet-hours.ts";
import { Outbox, type AfterDelivery, type OutboxRow } from "../../foundation/store/push-outbox.ts";
import { PushTargets } from "../../foundation/store/push-targets.ts";
import { PushLog, type PushLogEntry } from "../../foundation/store/push-log.ts";

export type { AfterDelivery } from "../../foundation/store/push-outbox.ts";
export type { PushLogEntry } from "../../foundation/store/push-log.ts";

import type { PushOutcome } from "../../foundation/store/push-log.ts";
export type { PushOutcome } from "../../foundation/store/push-log.ts";

/** The outcome of a push and, when delivered with `after.proactive`, the stored chat-log message. */
type PushResult = { outcome: "sent"; messageId?: number } | { outcome: Exclude<PushOutcome, "sent"> };

/** Runs the bookkeeping of a delivered push; returns the stored proactive message id, if any. */
export type DeliveredHandler = (userId: string, text: string, after: AfterDelivery) => Promise<number | undefined>;

/**
 * Messages Lilo sends on her own. Each user opts in from one chat; a push
 * goes there, or nowhere. Every push goes through the outbox (SQLite), so a
 * push written by a process without chat connections (the CLI) is delivered
 * by the running bot. Every attempt lands in the push log with its outcome,
 * including the ones that were not sent.
 */
export class Push {
  private readonly transports = new Map<string, Transport>();
  private readonly outbox: Outbox;
  private readonly targets: PushTargets;
  private readonly pushLog: PushLog;
  private onDelivered: DeliveredHandler | undefined;
  private readonly sentListeners: ((transport: string) => void)[] = [];
  private afterPass: (() => void) | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private tick: Promise<void> | undefined;

  constructor(
    db: Db,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** Quiet hours, and how long a queued push stays worth sending (LILO_PUSH_MAX_AGE_HOURS, read at each delivery). */
    private readonly quiet: { hours: QuietHours | undefined; timezone: string; maxAgeHours?: () => number },
  ) {
    this.outbox = new Outbox(db);
    this.targets = new PushTargets(db);
    this.pushLog = new PushLog(db);
  }

  /** The bookkeeping after a delivery (chat log, topic done), wired by the composition root. */
  setDeliveredHandler(handler: DeliveredHandler): void {
    this.onDelivered = handler;
  }

  /** Runs `listener` with the transport's name after each push that reached its platform (the metrics). */
  onSent(listener: (transport: string) => void): void {
    this.sentListeners.push(listener);
  }

  /** Runs after each delivery pass: the reminder scheduler notices there what another process (the CLI) changed. */
  setAfterPass(hook: () => void): void {
    this.afterPass = hook;
  }

  /** Called by each adapter when it starts. */
  registerTransport(t: Transport): void {
    this.transports.set(t.name, t);
  }

  unregisterTransport(name: string): void {
    this.transports.delete(name);
  }

  /** Pushes for `userId` go to this chat from now on. */
  optIn(userId: string, target: PushTarget): void {
    this.targets.optIn(userId, target, this.clock.now().toISOString());
  }

  /** No pushes for `userId` until the next opt-in. */
  optOut(userId: string): void {
    this.targets.optOut(userId, this.clock.now().toISOString());
  }

  /** Where pushes for a user go, if they opted in. */
  target(userId: string): PushTarget | undefined {
    return this.targets.get(userId);
  }

  /** Are pushes held back now (quiet hours)? Callers skip the model call for a push that would be dropped. */
  quietNow(): boolean {
    return this.quiet.hours !== undefined && inQuietHours(this.clock.now(), this.quiet.hours, this.quiet.timezone);
  }

  /** Sends a push (respecting quiet hours unless `force`), and logs the outcome. */
  async send(userId: string, message: PushMessage, opts: { force?: boolean; after?: AfterDelivery } = {}): Promise<PushOutcome> {
    return (await this.sendDetailed(userId, message, opts)).outcome;
  }

  /**
   * Writes a push to the outbox and, when this process can deliver it (it
   * has the target's transport, or runs the outbox delivery), delivers it at
   * once. Otherwise it is "queued" for the running bot. A push without an
   * opt-in or in quiet hours is logged and dropped right away.
   */
  async sendDetailed(userId: string, message: PushMessage, opts: { force?: boolean; after?: AfterDelivery } = {}): Promise<PushResult> {
    const target = this.target(userId);
    if (!target) return { outcome: this.log(userId, message, undefined, "not-opted-in") };
    if (!opts.force && this.quietNow()) return { outcome: this.log(userId, message, target, "quiet-hours") };
    const id = this.outbox.add(userId, message, opts.force === true, opts.after, this.clock.now().toISOString());
    if (!this.transports.has(target.transport) && !this.timer) {
      this.logger.info("push queued for the running bot", { userId, kind: message.kind });
      return { outcome: "queued" };
    }
    return (await this.deliver(id)) ?? { outcome: "queued" };
  }

  /**
   * Delivers pending outbox rows now and every `intervalMs` — in the process
   * that has the chat connections (the bot). A row a crash left claimed is
   * retried once first.
   */
  startDelivery(intervalMs: number): void {
    if (this.timer) return;
    const now = this.clock.now().toISOString();
    for (const g of this.outbox.recover(now)) this.log(g.userId, g.message, this.target(g.userId), "failed", "delivery interrupted twice");
    this.timer = setInterval(() => void this.deliverPending(), intervalMs);
    this.timer.unref?.();
    void this.deliverPending();
  }

  /** Stops the outbox delivery; waits for a delivery under way. */
  async stopDelivery(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.tick;
  }

  /** Delivers every pending outbox row once (one pass at a time). */
  deliverPending(): Promise<void> {
    if (this.tick) return this.tick;
    const pass = (async () => {
      try {
        for (const id of this.outbox.pending()) await this.deliver(id);
        this.afterPass?.();
      } catch (err) {
        this.logger.error("push outbox delivery failed", { error: describeError(err) });
      }
    })();
    // Cleared in a later microtask: a pass with nothing to do finishes before it could be assigned.
    const tracked: Promise<void> = pass.finally(() => {
      if (this.tick === tracked) this.tick = undefined;
    });
    this.tick = tracked;
    return tracked;
  }

  /** How many pushes wait in the outbox for the running bot. */
  queued(): number {
    return this.outbox.queued();
  }

  /** Claims one outbox row, delivers it (opt-in and quiet hours checked again now), logs, then runs the bookkeeping. */
  private async deliver(id: number): Promise<PushResult | undefined> {
    const row = this.outbox.claim(id, this.clock.now().toISOString());
    if (!row) return undefined;
    if (this.expired(row)) return { outcome: "failed" };
    const outcome = await this.attempt(row);
    this.outbox.finish(id, outcome, this.clock.now().toISOString());
    if (outcome !== "sent") return { outcome };
    if (!row.after || !this.onDelivered) return { outcome };
    try {
      const messageId = await this.onDelivered(row.userId, row.message.text, row.after);
      return messageId === undefined ? { outcome } : { outcome, messageId };
    } catch (err) {
      // The push went out; only the bookkeeping failed (a concern topic stays open for the next chat).
      this.logger.error("delivered push not recorded", { userId: row.userId, kind: row.message.kind, error: describeError(err) });
      return { outcome };
    }
  }

  /**
   * A push that waited in the outbox longer than the maximum age (the bot was
   * down for days) is dropped, not sent late: a diary ping from last week
   * would only confuse. Logged, and in the push log as failed with "expired"
   * (the outbox row keeps the outcome "expired").
   */
  private expired(row: OutboxRow): boolean {
    const ageMs = this.clock.now().getTime() - Date.parse(row.createdAt);
    const maxHours = this.quiet.maxAgeHours?.() ?? 24;
    if (!(ageMs > maxHours * 3_600_000)) return false;
    const hours = Math.round(ageMs / 360_000) / 10;
    this.logger.info("queued push dropped: older than LILO_PUSH_MAX_AGE_HOURS", { userId: row.userId, kind: row.message.kind, ageHours: hours, maxHours });
    this.log(row.userId, row.message, this.target(row.userId), "failed", `expired: queued ${hours} h ago, more than ${maxHours} h`);
    this.outbox.finish(row.id, "expired", this.clock.now().toISOString());
    return true;
  }

  private async attempt(row: OutboxRow): Promise<PushOutcome> {
    const { userId, message } = row;
    // A reminder goes to the chat it was set in: asking for it was the consent, no opt-in needed.
    const target = row.target ?? this.target(userId);
    if (!target) return this.log(userId, message, undefined, "not-opted-in");
    // Dropped, not sent later (docs/spec.md §9): a push that reaches quiet hours while queued is dropped too.
    if (!row.force && this.quietNow()) return this.log(userId, message, target, "quiet-hours");
    const transport = this.transports.get(target.transport);
    if (!transport) return this.log(userId, message, target, "no-transport");
    try {
      await transport.send(target, message);
      for (const listener of this.sentListeners) listener(target.transport);
      return this.log(userId, message, target, "sent");
    } catch (err) {
      this.logger.warn("push failed", { userId, transport: target.transport, error: describeError(err) });
      return this.log(userId, message, target, "failed", describeError(err));
    }
  }

  /** Newest entries first. */
  history(userId?: string, limit = 50): PushLogEntry[] {
    return this.pushLog.list(userId, limit);
  }

  private log(userId: string, m: PushMessage, target: PushTarget | undefined, outcome: PushOutcome, error?: string): PushOutcome {
    this.pushLog.add(userId, m, target, outcome, error, this.clock.now().toISOString());
    if (outcome !== "sent") this.logger.info(`push not delivered: ${outcome}`, { userId, kind: m.kind });
    return outcome;
  }
}
