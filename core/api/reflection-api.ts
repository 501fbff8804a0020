import { describeError } from "../foundation/errors.ts";
import type { Persona } from "../conversation/persona/persona.ts";
import type { TextRow } from "../foundation/store/text-rows.ts";
import type { FeatureContext } from "../background/feature-context.ts";
import type { ReflectionConfig } from "../background/reflection/concerns.ts";
import { pairAnswers } from "../background/reflection/parse-reflection.ts";
import { reflect, type ReflectionDeps, type ReflectionResult } from "../background/reflection/reflect.ts";

/** One stored thought as adapters and the CLI show it. */
export interface ThoughtEntry {
  id: number;
  /** "reflection" (quiet hours) or "chat" ([THOUGHT:] in a reply). */
  origin: string;
  /** Answers paired with the questions they answer (reflections); one part without a question otherwise. */
  parts: { question?: string; answer: string }[];
  text: string;
  createdAt: string;
}

/** Reflection as Lilo exposes it (`lilo.reflection`). */
export interface ReflectionApi {
  /** "Think now" (/think, `lilo thoughts think`): thinks even without new chats. */
  thinkNow(userId: string): Promise<ReflectionResult>;
  /** The scheduled run: only when there are chats newer than the last one seen. */
  run(userId: string): Promise<ReflectionResult>;
  /** Newest thoughts first. */
  list(userId: string, limit?: number): ThoughtEntry[];
  /** One thought with its owner; undefined when there is none (or it was deleted). */
  get(id: number): (ThoughtEntry & { userId: string }) | undefined;
}

/**
 * Reflection (docs/spec.md §9) from its collaborators, its configuration slice, the
 * persona and the shared feature context. Callers get a result instead of an
 * exception: a failed model call is logged and reported as `kind: "failed"`;
 * the next run tries again, because the messages count as unseen until a
 * reflection succeeded.
 */
export function reflectionApi(deps: ReflectionDeps, config: ReflectionConfig, persona: Persona, ctx: FeatureContext): ReflectionApi {
  const reflection = { deps, config, persona, ctx };
  const attempt = async (userId: string, force: boolean): Promise<ReflectionResult> => {
    try {
      return await reflect(reflection, userId, { force });
    } catch (err) {
      ctx.logger.error("reflection failed", { userId, error: describeError(err) });
      return { kind: "failed", error: describeError(err), cause: err };
    }
  };
  return {
    thinkNow: (userId) => attempt(userId, true),
    run: (userId) => attempt(userId, false),
    list: (userId, limit = 20) => deps.memory.rows.thoughts.list(userId, limit).map(toThoughtEntry),
    get: (id) => {
      const row = deps.memory.rows.thoughts.get(id);
      return row && !row.supersededAt ? { ...toThoughtEntry(row), userId: row.userId } : undefined;
    },
  };
}

/** A stored thought as adapters and the CLI show it. */
function toThoughtEntry(t: TextRow): ThoughtEntry {
  return {
    id: t.id,
    origin: String(t.extra.origin ?? "chat"),
    parts: t.extra.origin === "reflection" ? pairAnswers(t.text, t.extra.questions) : [{ answer: t.text }],
    text: t.text,
    createdAt: t.createdAt,
  };
}
