import type { LiloConfig } from "../../foundation/config/config.ts";
import type { Clock } from "../../foundation/ports/clock.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import type { TopicsStore } from "../../foundation/store/topics.ts";
import type { SettingsStore } from "../../foundation/store/settings.ts";
import type { ModelRegistry } from "../../foundation/models/registry.ts";
import type { Push, PushOutcome } from "../push/push.ts";
import { sharedWordShare } from "../../foundation/util/meaningful-words.ts";
import { modelLabel } from "../../foundation/ports/chat-model.ts";

/** The collaborators of concern handling. */
interface ConcernDeps {
  topics: TopicsStore;
  settings: SettingsStore;
  push: Push;
  /** Names the reflection model on a pushed concern stored as Lilo's message. */
  models: ModelRegistry;
}

/** The reflection's configuration slice (`config.reflection`); `concernPing` may change while Lilo runs. */
export type ReflectionConfig = LiloConfig["reflection"];

/** What became of an [ANSPRECHEN:] concern. */
export type ConcernOutcome =
  /** Due now; `push` is the outcome of the concern push, when one was attempted. */
  | { status: "open"; text: string; topicId: number; push?: PushOutcome }
  /** Waits for the throttle window (not dropped). */
  | { status: "queued"; text: string; topicId: number }
  /** An open topic (or a concern raised lately) says it already. */
  | { status: "duplicate"; text: string; duplicateOf: number };

/** 🧠 concerns from reflections: added to the topic list, throttled, pushed to the opted-in chat. */
export interface Concerns {
  /** Adds a concern (docs/spec.md §9): open, queued behind the throttle, or a duplicate. */
  add(userId: string, sentence: string): Promise<ConcernOutcome>;
  /** Opens the oldest queued concern once the throttle window has passed; undefined when none was. */
  releaseQueued(userId: string): Promise<ConcernOutcome | undefined>;
}

/** Per-user setting: when the last concern became open (the throttle's clock). */
const LAST_CONCERN_KEY = "reflection.last_concern_at";

/** The 🧠 prefix tells a concern from a normal follow-up topic. */
const CONCERN_PREFIX = "🧠";

/**
 * Concern handling from its collaborators and the reflection slice. A concern
 * is due at once, at most one new one per throttle window — a further one is
 * queued, not dropped as in the seed — and none when ≥ 60 % of its meaningful
 * words are shared with an open (or queued) topic, or a concern pushed within
 * the throttle window. A queued one opens once the window has passed, so a
 * concern that came too soon is brought up later instead of being lost.
 */
export function concerns(deps: ConcernDeps, config: ReflectionConfig, ctx: { clock: Clock; logger: Logger }): Concerns {
  const windowMs = () => config.concernMinHours * 3_600_000;
  const throttled = (userId: string, now: Date): boolean => {
    const last = deps.settings.get(LAST_CONCERN_KEY, userId);
    return !!last && now.getTime() - Date.parse(last) < windowMs();
  };
  /** A concern topic, due now; a queued one becomes due when it is released. */
  const insertTopic = (userId: string, text: string, status: "open" | "queued", now: Date): number => {
    const iso = now.toISOString();
    return deps.topics.add(userId, text, "concern", iso, iso, status);
  };
  /**
   * The opt-in push of a concern that just became open. Delivered, it is in
   * the chat log as Lilo's own message (so the user's reply is understood) and
   * the topic is done: she raised it, the sheet must not ask her to raise it again.
   */
  const pushConcern = async (userId: string, text: string, topicId: number): Promise<PushOutcome | undefined> => {
    // Sent (and logged) even without an opt-in: the push log then says "not-opted-in".
    if (!config.concernPing) return undefined;
    // Delivered (here or by the running bot, when queued from the CLI): stored as proactive, the topic done.
    return deps.push.send(
      userId,
      { kind: "concern", text },
      { after: { proactive: { model: modelLabel(deps.models.forRole("reflection")) }, topicDone: topicId } },
    );
  };

  return {
    async add(userId, sentence) {
      const body = sentence.trim().replace(new RegExp(`^${CONCERN_PREFIX}\\s*`, "u"), "");
      const text = `${CONCERN_PREFIX} ${body}`;
      const now = ctx.clock.now();
      // A concern pushed a moment ago is done (she raised it) but still counts: no second push of the same worry.
      const recentlyRaised = deps.topics
        .list(userId, "done")
        .filter((t) => t.kind === "concern" && t.doneAt && now.getTime() - Date.parse(t.doneAt) < windowMs());
      const pending = [...deps.topics.list(userId, "open"), ...deps.topics.list(userId, "queued"), ...recentlyRaised];
      const dup = pending.find((t) => sharedWordShare(body, t.text) >= config.concernDuplicateShare);
      if (dup) {
        ctx.logger.info("concern not created: an open topic says the same", { userId, duplicateOf: dup.id });
        return { status: "duplicate", text, duplicateOf: dup.id };
      }
      if (throttled(userId, now)) {
        const topicId = insertTopic(userId, text, "queued", now);
        ctx.logger.info("concern queued: another one became open less than the throttle window ago", { userId, topicId });
        return { status: "queued", text, topicId };
      }
      const topicId = insertTopic(userId, text, "open", now);
      deps.settings.set(LAST_CONCERN_KEY, now.toISOString(), now.toISOString(), userId);
      const push = await pushConcern(userId, text, topicId);
      return { status: "open", text, topicId, ...(push ? { push } : {}) };
    },

    async releaseQueued(userId) {
      const now = ctx.clock.now();
      if (throttled(userId, now)) return undefined;
      const queued = deps.topics.list(userId, "queued").filter((t) => t.kind === "concern");
      const oldest = queued.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id)[0];
      if (!oldest) return undefined;
      const iso = now.toISOString();
      deps.topics.openQueued(oldest.id, iso, iso);
      deps.settings.set(LAST_CONCERN_KEY, iso, iso, userId);
      ctx.logger.info("queued concern is now open", { userId, topicId: oldest.id });
      const push = await pushConcern(userId, oldest.text, oldest.id);
      return { status: "open", text: oldest.text, topicId: oldest.id, ...(push ? { push } : {}) };
    },
  };
}
