import type { LiloConfig } from "../../foundation/config/config.ts";
import type { Clock } from "../../foundation/ports/clock.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import type { Topic, TopicsStore } from "../../foundation/store/topics.ts";
import { checkAddressed } from "./addressed.ts";

/** Runs the addressed-check on one answer and marks the topic done when it passes; true then. */
export function markIfAddressed(
  deps: { config: { topics: Pick<LiloConfig["topics"], "addressedWords"> }; clock: Clock; logger: Logger; topics: TopicsStore },
  topic: Topic,
  answer: string,
): boolean {
  const check = checkAddressed(topic, answer, deps.config.topics.addressedWords);
  if (!check.addressed) {
    deps.logger.debug("topic not addressed yet; it stays open", { topicId: topic.id, found: check.found, needed: check.needed });
    return false;
  }
  const done = deps.topics.markDone(topic.id, deps.clock.now().toISOString());
  if (done) deps.logger.info("topic addressed", { userId: topic.userId, topicId: topic.id, kind: topic.kind, found: check.found });
  return done;
}
