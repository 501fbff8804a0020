import type { LiloConfig } from "../config.ts";
import type { Clock } from "../ports/clock.ts";
import type { Logger } from "../ports/logger.ts";
import type { Topic, TopicsStore } from "../store/topics.ts";
import type { TurnStep } from "../turn/types.ts";
import { userName } from "../turn/turn.ts";
import { dueTopicInstruction } from "../prompts/topics.ts";
import { checkAddressed } from "./addressed.ts";

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

/** Runs the addressed-check on one answer and marks the topic done when it passes; true then. */
export function markIfAddressed(deps: DueTopicDeps, topic: Topic, answer: string): boolean {
  const check = checkAddressed(topic, answer, deps.config.topics.addressedWords);
  if (!check.addressed) {
    deps.logger.debug("topic not addressed yet; it stays open", { topicId: topic.id, found: check.found, needed: check.needed });
    return false;
  }
  const done = deps.topics.markDone(topic.id, deps.clock.now().toISOString());
  if (done) deps.logger.info("topic addressed", { userId: topic.userId, topicId: topic.id, kind: topic.kind, found: check.found });
  return done;
}
