import { describeError } from "../foundation/errors.ts";
import type { Persona } from "../conversation/persona/persona.ts";
import type { FeatureContext } from "../background/feature-context.ts";
import {
  draftGreeting,
  greet,
  greetingBlocker,
  type GreetingConfig,
  type GreetingDeps,
  type GreetingReason,
  type GreetingResult,
} from "../background/greeting/greet.ts";

/** A greeting written for a look, neither sent nor stored (`lilo greet`). */
export type GreetingPreview = {
  /** Why the scheduled job would not greet now; absent when it would. */
  blocker?: GreetingReason;
} &
  /** Written; `pause` and `today` as the model got them, `concern` the 🧠 topic offered. */
  (
    | { kind: "draft"; text: string; pause: string; today: string; concern?: string }
    /** Nothing to greet from: the user never wrote. */
    | { kind: "skipped"; reason: "no-conversation" }
    /** The model answered with nothing to show. */
    | { kind: "skipped"; reason: "empty-answer"; pause: string; today: string; concern?: string }
    | { kind: "failed"; error: string }
  );

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
 * Greetings (docs/spec.md §9, Beyond) from their collaborators, the configuration
 * slice, the persona and the shared feature context. Callers (the job,
 * adapters, the CLI) get a result instead of an exception: a failed model
 * call is logged and reported as `kind: "failed"`; the next run tries again,
 * since nothing was stored.
 */
export function greetingApi(deps: GreetingDeps, config: GreetingConfig, persona: Persona, ctx: FeatureContext): GreetingApi {
  const greeting = { deps, config, persona, ctx };
  const attempt = async (userId: string, force: boolean): Promise<GreetingResult> => {
    try {
      return await greet(greeting, userId, { force });
    } catch (err) {
      ctx.logger.error("greeting failed", { userId, error: describeError(err) });
      return { kind: "failed", error: describeError(err), cause: err };
    }
  };
  return {
    run: (userId) => attempt(userId, false),
    sendNow: (userId) => attempt(userId, true),
    preview: async (userId) => {
      const now = ctx.clock.now();
      const blocker = greetingBlocker(greeting, userId, now);
      const base = blocker ? { blocker } : {};
      try {
        const draft = await draftGreeting(greeting, userId, now);
        if (!draft) return { ...base, kind: "skipped", reason: "no-conversation" };
        const facts = { pause: draft.context.pause, today: draft.context.today, ...(draft.concern ? { concern: draft.concern.text } : {}) };
        return draft.text ? { ...base, ...facts, kind: "draft", text: draft.text } : { ...base, ...facts, kind: "skipped", reason: "empty-answer" };
      } catch (err) {
        return { ...base, kind: "failed", error: describeError(err) };
      }
    },
  };
}
