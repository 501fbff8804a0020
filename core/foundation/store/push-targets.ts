import type { Db } from "./db.ts";
import type { PushTarget } from "../ports/transport.ts";

/** Where each user's pushes go: the one chat they opted in from (table `push_targets`). */
export class PushTargets {
  constructor(private readonly db: Db) {}

  /** Pushes for `userId` go to this chat from now on. */
  optIn(userId: string, target: PushTarget, now: string): void {
    this.db
      .prepare(
        `INSERT INTO push_targets (user_id, transport, chat_id, enabled, created_at, updated_at) VALUES (?, ?, ?, 1, ?, ?)
         ON CONFLICT (user_id) DO UPDATE SET transport = excluded.transport, chat_id = excluded.chat_id, enabled = 1, updated_at = excluded.updated_at`,
      )
      .run(userId, target.transport, target.chatId, now, now);
  }

  /** No pushes for `userId` until the next opt-in. */
  optOut(userId: string, now: string): void {
    this.db.prepare(`UPDATE push_targets SET enabled = 0, updated_at = ? WHERE user_id = ?`).run(now, userId);
  }

  /** Where pushes for a user go, if they opted in. */
  get(userId: string): PushTarget | undefined {
    const r = this.db.prepare(`SELECT transport, chat_id FROM push_targets WHERE user_id = ? AND enabled = 1`).get(userId) as
      { transport: string; chat_id: string } | undefined;
    return r && { transport: r.transport, chatId: r.chat_id };
  }
}
