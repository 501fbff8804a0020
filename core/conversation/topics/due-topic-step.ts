import type { LiloConfig } from "../../foundation/config/config.ts";
import type { Clock } from "../../foundation/ports/clock.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import type { TopicsStore } from "../../foundation/store/topics.ts";
import type { Persona } from "../persona/persona.ts";
import type { AfterReplyTask, TurnMiddleware } from "../turn/types.ts";
import { dueTopicInstruction } from "../prompts/topics.ts";
import { markIfAddressed } from "./mark-addressed.ts";
import type { BoundaryGuard } from "../../memory/boundaries/boundaries.ts";

/** The collaborators of the due-topic middleware. */
interface DueTopicServices {
  topics: TopicsStore;
  persona: Persona;
  clock: Clock;
  logger: Logger;
  /** A topic about a boundary is not brought up (unless the message raises it). */
  boundaries?: BoundaryGuard | undefined;
}

/**
 * The addressed-check after the reply (docs/spec.md §9), a durable job: the topic
 * that was on the sheet is marked done when the answer took it up, or stays
 * open for the next message. Its state is the topic id (null: none was due).
 */
function addressedCheckTask(deps: DueTopicServices, config: { topics: Pick<LiloConfig["topics"], "addressedWords"> }): AfterReplyTask<number | null> {
  return {
    // The name stored with the jobs since turn steps had an `after`: jobs left by a crash still find it.
    kind: "after:due-topic",
    async run({ answer }, id) {
      const topic = typeof id === "number" ? deps.topics.get(id) : undefined;
      if (!topic || topic.status !== "open") return;
      markIfAddressed({ ...deps, config }, topic, answer.text);
    },
  };
}

/**
 * Store 8 on the cheat sheet (docs/spec.md §4, §9): at most one due open topic per
 * message — 🧠 concerns first, then normal follow-ups, each oldest due first
 * — with its instruction; the addressed-check runs after the reply.
 */
export function dueTopic(deps: DueTopicServices, config: { topics: Pick<LiloConfig["topics"], "addressedWords"> }): TurnMiddleware {
  const check = addressedCheckTask(deps, config);
  return {
    name: "due-topic",
    readOnly: true,
    tasks: [check],
    async run(ctx, next) {
      const due = deps.topics.due(ctx.userId, ctx.now.toISOString());
      const fence = deps.boundaries?.for(ctx.userId, ctx.text);
      const topic = (fence ? fence.filter(due, (t) => t.text) : due)[0];
      // Recorded with the answer (a null state too), so the check also runs after a restart.
      ctx.waitUntil(check, topic?.id ?? null);
      if (topic) ctx.sheet.dueTopic = dueTopicInstruction(deps.persona.language, topic, deps.persona.userName(ctx.userId));
      await next();
    },
  };
}
