import type { Db } from "../../foundation/store/db.ts";
import { QuestionsStore, type PendingQuestion } from "../../foundation/store/questions.ts";
import type { Clock } from "../../foundation/ports/clock.ts";
import type { Question } from "../turn/types.ts";
import { LiloError } from "../../foundation/errors.ts";

export type { PendingQuestion } from "../../foundation/store/questions.ts";

export type Answer = "yes" | "no";

/** What happens when a user answers a question of one kind. Returns the text to show. */
export interface QuestionHandler {
  readonly kind: string;
  onAnswer(question: PendingQuestion, answer: Answer, now: Date): Promise<string> | string;
}

/** The outcome of an answer, for adapters to render (replace the buttons with `text`). */
export type AnswerOutcome = { ok: true; text: string; answer: Answer } | { ok: false; reason: "not-found" | "not-yours" | "closed" | "expired"; text: string };

export const QUESTION_TEXTS = {
  de: { yes: "Ja", no: "Nein", closed: "Diese Frage ist schon beantwortet.", expired: "Diese Frage ist abgelaufen.", missing: "Diese Frage gibt es nicht." },
  en: { yes: "Yes", no: "No", closed: "This question was answered already.", expired: "This question has expired.", missing: "There is no such question." },
} as const;

/**
 * Yes/no questions: asked by the core, answered by a button, a reaction or
 * typed words. Only the user a question belongs to can answer it, once.
 */
export class Questions {
  private readonly handlers = new Map<string, QuestionHandler>();
  private readonly rows: QuestionsStore;

  constructor(
    db: Db,
    private readonly clock: Clock,
    private readonly language: "de" | "en",
  ) {
    this.rows = new QuestionsStore(db);
  }

  register(handler: QuestionHandler): void {
    this.handlers.set(handler.kind, handler);
  }

  /**
   * Stores a question; a newer question of the same user replaces any still
   * open one. `labels` name the two choices where "Ja"/"Nein" would not fit.
   */
  ask(userId: string, kind: string, payload: unknown, text: string, ttlMs: number, labels?: { yes: string; no: string }): Question {
    if (!this.handlers.has(kind)) throw new LiloError("internal", `No handler for questions of kind "${kind}"`);
    const now = this.clock.now();
    const iso = now.toISOString();
    const id = this.rows.replaceOpen({ userId, kind, payload, expiresAt: new Date(now.getTime() + ttlMs).toISOString() }, iso);
    return this.render(id, text, labels);
  }

  /** The user's open question, if it has not expired (expired ones are marked so). */
  pending(userId: string): PendingQuestion | undefined {
    const now = this.clock.now().toISOString();
    this.rows.expireDue(userId, now);
    return this.rows.newestOpen(userId);
  }

  get(id: number): PendingQuestion | undefined {
    return this.rows.get(id);
  }

  /**
   * Closes the user's open question as answered by a message the core read
   * itself (not yes/no: "stimmt nicht" takes what is wrong in words), without
   * its handler; false when it was not open any more (a button was faster).
   */
  settle(q: PendingQuestion, answer: Answer): boolean {
    return this.rows.claim(q.id, answer, this.clock.now().toISOString());
  }

  /** Drops an open question (the user talked about something else). */
  discard(id: number): void {
    this.rows.discard(id, this.clock.now().toISOString());
  }

  /** Applies an answer from `userId`; anyone else's answer changes nothing. */
  async answer(userId: string, questionId: number, answer: Answer): Promise<AnswerOutcome> {
    const t = QUESTION_TEXTS[this.language];
    const q = this.get(questionId);
    if (!q) return { ok: false, reason: "not-found", text: t.missing };
    if (q.userId !== userId) return { ok: false, reason: "not-yours", text: t.missing };
    if (q.status === "open" && q.expiresAt <= this.clock.now().toISOString()) {
      this.rows.expire(q.id, this.clock.now().toISOString());
      return { ok: false, reason: "expired", text: t.expired };
    }
    if (q.status !== "open") return { ok: false, reason: q.status === "expired" ? "expired" : "closed", text: q.status === "expired" ? t.expired : t.closed };
    // Claim the question first so a double tap cannot apply the answer twice.
    if (!this.rows.claim(q.id, answer, this.clock.now().toISOString())) return { ok: false, reason: "closed", text: t.closed };
    const handler = this.handlers.get(q.kind);
    if (!handler) throw new LiloError("internal", `No handler for questions of kind "${q.kind}"`);
    return { ok: true, answer, text: await handler.onAnswer(q, answer, this.clock.now()) };
  }

  private render(id: number, text: string, labels?: { yes: string; no: string }): Question {
    const t = QUESTION_TEXTS[this.language];
    return {
      id,
      text,
      choices: [
        { value: "yes", label: labels?.yes ?? t.yes },
        { value: "no", label: labels?.no ?? t.no },
      ],
    };
  }
}
