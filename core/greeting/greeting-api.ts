import { describeError } from "../errors.ts";
import { draftGreeting, greet, greetingBlocker, type GreetingDeps, type GreetingReason, type GreetingResult } from "./greet.ts";

/** A greeting written for a look, neither sent nor stored (`lilo greet`). */
export interface GreetingPreview {
  text?: string;
  /** The pause in words and today's date, as the model got them. */
  pause?: string;
  today?: string;
  /** The 🧠 concern offered to the greeting, if one was due. */
  concern?: string;
  /** Why the scheduled job would not greet now; undefined when it would. */
  blocker?: GreetingReason;
  reason?: "no-conversation" | "empty-answer" | "failed";
  error?: string;
}

/** Greetings as Lilo exposes them (`lilo.greeting`). */
export interface GreetingApi {
  /** The scheduled run: only when opted in, silent for `greeting.minHours`, and not greeted within them. */
  run(userId: string): Promise<GreetingResult>;
  /** Greets now, ignoring the time rules — not the opt-in, not quiet hours. */
  sendNow(userId: string): Promise<GreetingResult>;
  /** Writes a greeting to look at: nothing sent, nothing stored, no topic marked done. */
  preview(userId: string): Promise<GreetingPreview>;
}

/**
 * Wraps `greet` so callers (the job, adapters, the CLI) get a result instead
 * of an exception: a failed model call is logged and reported as
 * `reason: "failed"`; the next run tries again, since nothing was stored.
 */
export function greetingApi(deps: GreetingDeps): GreetingApi {
  const attempt = async (userId: string, force: boolean): Promise<GreetingResult> => {
    try {
      return await greet(deps, userId, { force });
    } catch (err) {
      deps.logger.error("greeting failed", { userId, error: describeError(err) });
      return { sent: false, reason: "failed", error: describeError(err) };
    }
  };
  return {
    run: (userId) => attempt(userId, false),
    sendNow: (userId) => attempt(userId, true),
    preview: async (userId) => {
      const now = deps.clock.now();
      const blocker = greetingBlocker(deps, userId, now);
      const base = blocker ? { blocker } : {};
      try {
        const draft = await draftGreeting(deps, userId, now);
        if (!draft) return { ...base, reason: "no-conversation" };
        const facts = { pause: draft.context.pause, today: draft.context.today, ...(draft.concern ? { concern: draft.concern.text } : {}) };
        return draft.text ? { ...base, ...facts, text: draft.text } : { ...base, ...facts, reason: "empty-answer" };
      } catch (err) {
        return { ...base, reason: "failed", error: describeError(err) };
      }
    },
  };
}
