import type { LiloConfig } from "../config.ts";
import type { Clock } from "../ports/clock.ts";
import type { Logger } from "../ports/logger.ts";
import type { TopicsStore } from "../store/topics.ts";
import type { TurnStep } from "../turn/types.ts";
import { userName } from "../persona/persona.ts";
import { dueTopicInstruction } from "../prompts/topics.ts";
import { markIfAddressed } from "./mark-addressed.ts";

/** What the due-topic step needs. */
export interface DueTopicDeps {
  config: LiloConfig;
  clock: Clock;
  logger: Logger;
  topics: TopicsStore;
}

/**
 * Store 8 on the cheat sheet (SPEC §4, §9): at most one due open topic per
 * message — 🧠 concerns first, then normal follow-ups, each oldest due first
 * — with its instruction. After the reply, the addressed-check marks it done
 * or leaves it open for the next message.
 */
export function dueTopicStep(deps: DueTopicDeps): TurnStep {
  const name = "due-topic";
  return {
    name,
    readOnly: true,
    async before(ctx) {
      const topic = deps.topics.due(ctx.userId, ctx.now.toISOString())[0];
      if (!topic) return;
      // Kept on the context (and stored with the after-reply job), so the check also runs after a restart.
      (ctx.afterState ??= {})[name] = topic.id;
      ctx.extras.push(dueTopicInstruction(deps.config.persona.language, topic, userName(deps.config, ctx.userId)));
    },
    async after(ctx, answer) {
      const id = ctx.afterState?.[name];
      const topic = typeof id === "number" ? deps.topics.get(id) : undefined;
      if (!topic || topic.status !== "open") return;
      markIfAddressed(deps, topic, answer.text);
    },
  };
}
