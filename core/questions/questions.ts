import type { Db } from "../store/db.ts";
import { writeTransaction } from "../store/tx.ts";
import type { Clock } from "../ports/clock.ts";
import type { Question } from "../turn/types.ts";
import { LiloError } from "../errors.ts";

export type Answer = "yes" | "no";

/** A question Lilo asked and may still be waiting on. */
export interface PendingQuestion {
  id: number;
  userId: string;
  kind: string;
  payload: unknown;
  status: "open" | "yes" | "no" | "discarded" | "expired";
  expiresAt: string;
  createdAt: string;
}

/** What happens when a user answers a question of one kind. Returns the text to show. */
export interface QuestionHandler {
  readonly kind: string;
  onAnswer(question: PendingQuestion, answer: Answer, now: Date): Promise<string> | string;
}

/** The outcome of an answer, for adapters to render (replace the buttons with `text`). */
export type AnswerOutcome =
  | { ok: true; text: string; answer: Answer }
  | { ok: false; reason: "not-found" | "not-yours" | "closed" | "expired"; text: string };

type Raw = { id: number; user_id: string; kind: string; payload: string; status: PendingQuestion["status"]; expires_at: string; created_at: string };
const toQuestion = (r: Raw): PendingQuestion => ({
  id: r.id,
  userId: r.user_id,
  kind: r.kind,
  payload: JSON.parse(r.payload) as unknown,
  status: r.status,
  expiresAt: r.expires_at,
  createdAt: r.created_at,
});

const TEXTS = {
  de: { yes: "Ja", no: "Nein", closed: "Diese Frage ist schon beantwortet.", expired: "Diese Frage ist abgelaufen.", missing: "Diese Frage gibt es nicht." },
  en: { yes: "Yes", no: "No", closed: "This question was answered already.", expired: "This question has expired.", missing: "There is no such question." },
} as const;

/**
 * Yes/no questions: asked by the core, answered by a button, a reaction or
 * typed words. Only the user a question belongs to can answer it, once.
 */
export class Questions {
  private readonly handlers = new Map<string, QuestionHandler>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly language: "de" | "en",
  ) {}

  register(handler: QuestionHandler): void {
    this.handlers.set(handler.kind, handler);
  }

  /** Stores a question; a newer question of the same user replaces any still open one. */
  ask(userId: string, kind: string, payload: unknown, text: string, ttlMs: number): Question {
    if (!this.handlers.has(kind)) throw new LiloError("internal", `No handler for questions of kind "${kind}"`);
    const now = this.clock.now();
    const iso = now.toISOString();
    const id = writeTransaction(this.db, () => {
      this.db.prepare(`UPDATE pending_questions SET status = 'discarded', updated_at = ? WHERE user_id = ? AND status = 'open'`).run(iso, userId);
      const info = this.db
        .prepare(`INSERT INTO pending_questions (user_id, kind, payload, status, expires_at, created_at, updated_at) VALUES (?, ?, ?, 'open', ?, ?, ?)`)
        .run(userId, kind, JSON.stringify(payload), new Date(now.getTime() + ttlMs).toISOString(), iso, iso);
      return Number(info.lastInsertRowid);
    });
    return this.render(id, text);
  }

  /** The user's open question, if it has not expired (expired ones are marked so). */
  pending(userId: string): PendingQuestion | undefined {
    const now = this.clock.now().toISOString();
    this.db.prepare(`UPDATE pending_questions SET status = 'expired', updated_at = ? WHERE user_id = ? AND status = 'open' AND expires_at <= ?`).run(now, userId, now);
    const r = this.db.prepare(`SELECT * FROM pending_questions WHERE user_id = ? AND status = 'open' ORDER BY id DESC LIMIT 1`).get(userId) as Raw | undefined;
    return r && toQuestion(r);
  }

  get(id: number): PendingQuestion | undefined {
    const r = this.db.prepare(`SELECT * FROM pending_questions WHERE id = ?`).get(id) as Raw | undefined;
    return r && toQuestion(r);
  }

  /** Drops an open question (the user talked about something else). */
  discard(id: number): void {
    this.db.prepare(`UPDATE pending_questions SET status = 'discarded', updated_at = ? WHERE id = ? AND status = 'open'`).run(this.clock.now().toISOString(), id);
  }

  /** Applies an answer from `userId`; anyone else's answer changes nothing. */
  async answer(userId: string, questionId: number, answer: Answer): Promise<AnswerOutcome> {
    const t = TEXTS[this.language];
    const q = this.get(questionId);
    if (!q) return { ok: false, reason: "not-found", text: t.missing };
    if (q.userId !== userId) return { ok: false, reason: "not-yours", text: t.missing };
    if (q.status === "open" && q.expiresAt <= this.clock.now().toISOString()) {
      this.db.prepare(`UPDATE pending_questions SET status = 'expired', updated_at = ? WHERE id = ?`).run(this.clock.now().toISOString(), q.id);
      return { ok: false, reason: "expired", text: t.expired };
    }
    if (q.status !== "open") return { ok: false, reason: q.status === "expired" ? "expired" : "closed", text: q.status === "expired" ? t.expired : t.closed };
    // Claim the question first so a double tap cannot apply the answer twice.
    const claimed = this.db.prepare(`UPDATE pending_questions SET status = ?, updated_at = ? WHERE id = ? AND status = 'open'`).run(answer, this.clock.now().toISOString(), q.id);
    if (claimed.changes === 0) return { ok: false, reason: "closed", text: t.closed };
    const handler = this.handlers.get(q.kind);
    if (!handler) throw new LiloError("internal", `No handler for questions of kind "${q.kind}"`);
    return { ok: true, answer, text: await handler.onAnswer(q, answer, this.clock.now()) };
  }

  private render(id: number, text: string): Question {
    const t = TEXTS[this.language];
    return { id, text, choices: [{ value: "yes", label: t.yes }, { value: "no", label: t.no }] };
  }
}
