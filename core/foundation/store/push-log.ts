import type { Db } from "./db.ts";
import type { PushMessage, PushTarget } from "../ports/transport.ts";

/** "queued": written to the outbox for the running bot to deliver (this process has no chat connection). */
export type PushOutcome = "sent" | "failed" | "not-opted-in" | "quiet-hours" | "no-transport" | "queued";

/** One attempted push, with its outcome. */
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

interface RawEntry {
  id: number;
  user_id: string;
  kind: string;
  transport: string | null;
  chat_id: string | null;
  text: string;
  outcome: PushOutcome;
  error: string | null;
  created_at: string;
}

/** Every push attempt and its outcome, including the ones that were not sent (table `push_log`). */
export class PushLog {
  constructor(private readonly db: Db) {}

  add(userId: string, m: PushMessage, target: PushTarget | undefined, outcome: PushOutcome, error: string | undefined, now: string): void {
    this.db
      .prepare(`INSERT INTO push_log (user_id, kind, transport, chat_id, text, outcome, error, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(userId, m.kind, target?.transport ?? null, target?.chatId ?? null, m.text, outcome, error ?? null, now, now);
  }

  /** Newest entries first; one user's, or everyone's without `userId`. */
  list(userId: string | undefined, limit: number): PushLogEntry[] {
    const rows = (
      userId
        ? this.db.prepare(`SELECT * FROM push_log WHERE user_id = ? ORDER BY id DESC LIMIT ?`).all(userId, limit)
        : this.db.prepare(`SELECT * FROM push_log ORDER BY id DESC LIMIT ?`).all(limit)
    ) as RawEntry[];
    return rows.map((r) => ({
      id: r.id,
      userId: r.user_id,
      kind: r.kind,
      transport: r.transport,
      chatId: r.chat_id,
      text: r.text,
      outcome: r.outcome,
      error: r.error,
      createdAt: r.created_at,
    }));
  }
}
