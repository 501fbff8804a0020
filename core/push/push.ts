import type { Db } from "../store/db.ts";
import type { Clock } from "../ports/clock.ts";
import type { Logger } from "../ports/logger.ts";
import type { PushMessage, PushTarget, Transport } from "../ports/transport.ts";
import { describeError } from "../errors.ts";
import { inQuietHours, type QuietHours } from "./quiet-hours.ts";

export type PushOutcome = "sent" | "failed" | "not-opted-in" | "quiet-hours" | "no-transport";

export interface PushLogEntry {
  id: number;
  userId: string;
  kind: string;
  transport: string | null;
  chatId: string | null;
  text: string;
  outcome: PushOutcome;
  error: string | null;
  createdAt: string;
}

/**
 * Messages Lilo sends on her own. Each user opts in from one chat; a push
 * goes there, or nowhere. Every attempt lands in the push log with its
 * outcome, including the ones that were not sent.
 */
export class Push {
  private readonly transports = new Map<string, Transport>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly quiet: { hours: QuietHours | undefined; timezone: string },
  ) {}

  /** Called by each adapter when it starts. */
  registerTransport(t: Transport): void {
    this.transports.set(t.name, t);
  }

  unregisterTransport(name: string): void {
    this.transports.delete(name);
  }

  /** Pushes for `userId` go to this chat from now on. */
  optIn(userId: string, target: PushTarget): void {
    const now = this.clock.now().toISOString();
    this.db
      .prepare(
        `INSERT INTO push_targets (user_id, transport, chat_id, enabled, created_at, updated_at) VALUES (?, ?, ?, 1, ?, ?)
         ON CONFLICT (user_id) DO UPDATE SET transport = excluded.transport, chat_id = excluded.chat_id, enabled = 1, updated_at = excluded.updated_at`,
      )
      .run(userId, target.transport, target.chatId, now, now);
  }

  optOut(userId: string): void {
    this.db.prepare(`UPDATE push_targets SET enabled = 0, updated_at = ? WHERE user_id = ?`).run(this.clock.now().toISOString(), userId);
  }

  /** Where pushes for a user go, if they opted in. */
  target(userId: string): PushTarget | undefined {
    const r = this.db.prepare(`SELECT transport, chat_id FROM push_targets WHERE user_id = ? AND enabled = 1`).get(userId) as
      | { transport: string; chat_id: string }
      | undefined;
    return r && { transport: r.transport, chatId: r.chat_id };
  }

  /** Are pushes held back now (quiet hours)? Callers skip the model call for a push that would be dropped. */
  quietNow(): boolean {
    return this.quiet.hours !== undefined && inQuietHours(this.clock.now(), this.quiet.hours, this.quiet.timezone);
  }

  /** Sends a push (respecting quiet hours unless `force`), and logs the outcome. */
  async send(userId: string, message: PushMessage, opts: { force?: boolean } = {}): Promise<PushOutcome> {
    const target = this.target(userId);
    if (!target) return this.log(userId, message, undefined, "not-opted-in");
    if (!opts.force && this.quietNow()) {
      return this.log(userId, message, target, "quiet-hours");
    }
    const transport = this.transports.get(target.transport);
    if (!transport) return this.log(userId, message, target, "no-transport");
    try {
      await transport.send(target, message);
      return this.log(userId, message, target, "sent");
    } catch (err) {
      this.logger.warn("push failed", { userId, transport: target.transport, error: describeError(err) });
      return this.log(userId, message, target, "failed", describeError(err));
    }
  }

  /** Newest entries first. */
  history(userId?: string, limit = 50): PushLogEntry[] {
    const rows = (userId
      ? this.db.prepare(`SELECT * FROM push_log WHERE user_id = ? ORDER BY id DESC LIMIT ?`).all(userId, limit)
      : this.db.prepare(`SELECT * FROM push_log ORDER BY id DESC LIMIT ?`).all(limit)) as {
      id: number;
      user_id: string;
      kind: string;
      transport: string | null;
      chat_id: string | null;
      text: string;
      outcome: PushOutcome;
      error: string | null;
      created_at: string;
    }[];
    return rows.map((r) => ({ id: r.id, userId: r.user_id, kind: r.kind, transport: r.transport, chatId: r.chat_id, text: r.text, outcome: r.outcome, error: r.error, createdAt: r.created_at }));
  }

  private log(userId: string, m: PushMessage, target: PushTarget | undefined, outcome: PushOutcome, error?: string): PushOutcome {
    const now = this.clock.now().toISOString();
    this.db
      .prepare(`INSERT INTO push_log (user_id, kind, transport, chat_id, text, outcome, error, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(userId, m.kind, target?.transport ?? null, target?.chatId ?? null, m.text, outcome, error ?? null, now, now);
    if (outcome !== "sent") this.logger.info(`push not delivered: ${outcome}`, { userId, kind: m.kind });
    return outcome;
  }
}
