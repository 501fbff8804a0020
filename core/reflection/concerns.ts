import type { TopicsStore } from "../store/topics.ts";
import type { SettingsStore } from "../store/settings.ts";
import type { Push, PushOutcome } from "../push/push.ts";
import { sharedWordShare } from "../util/meaningful-words.ts";
import { modelLabel } from "../ports/chat-model.ts";
import type { ProactiveDeps } from "../push/proactive.ts";

/** What handling a concern needs. */
export interface ConcernDeps extends ProactiveDeps {
  topics: TopicsStore;
  settings: SettingsStore;
  push: Push;
}

/** What became of an [ANSPRECHEN:] concern. */
export interface ConcernOutcome {
  /** open: due now; queued: waits for the throttle (not dropped); duplicate: an open topic says it already. */
  status: "open" | "queued" | "duplicate";
  text: string;
  topicId?: number;
  duplicateOf?: number;
  /** Outcome of the concern push, when one was attempted. */
  push?: PushOutcome;
}

/** Per-user setting: when the last concern became open (the throttle's clock). */
export const LAST_CONCERN_KEY = "reflection.last_concern_at";

/** The 🧠 prefix tells a concern from a normal follow-up topic. */
export const CONCERN_PREFIX = "🧠";

/**
 * Adds a concern from a reflection to the topic list (SPEC §9): due at once,
 * at most one new one per throttle window — a further one is queued, not
 * dropped as in the seed — and none when ≥ 60 % of its meaningful words are
 * shared with an open (or queued) topic, or a concern pushed within the
 * throttle window.
 */
export async function addConcern(deps: ConcernDeps, userId: string, sentence: string): Promise<ConcernOutcome> {
  const body = sentence.trim().replace(new RegExp(`^${CONCERN_PREFIX}\\s*`, "u"), "");
  const text = `${CONCERN_PREFIX} ${body}`;
  const now = deps.clock.now();
  // A concern pushed a moment ago is done (she raised it) but still counts: no second push of the same worry.
  const windowMs = deps.config.reflection.concernMinHours * 3_600_000;
  const recentlyRaised = deps.topics
    .list(userId, "done")
    .filter((t) => t.kind === "concern" && t.doneAt && now.getTime() - Date.parse(t.doneAt) < windowMs);
  const pending = [...deps.topics.list(userId, "open"), ...deps.topics.list(userId, "queued"), ...recentlyRaised];
  const dup = pending.find((t) => sharedWordShare(body, t.text) >= deps.config.reflection.concernDuplicateShare);
  if (dup) {
    deps.logger.info("concern not created: an open topic says the same", { userId, duplicateOf: dup.id });
    return { status: "duplicate", text, duplicateOf: dup.id };
  }
  if (throttled(deps, userId, now)) {
    const topicId = insertTopic(deps, userId, text, "queued", now);
    deps.logger.info("concern queued: another one became open less than the throttle window ago", { userId, topicId });
    return { status: "queued", text, topicId };
  }
  const topicId = insertTopic(deps, userId, text, "open", now);
  deps.settings.set(LAST_CONCERN_KEY, now.toISOString(), now.toISOString(), userId);
  const push = await pushConcern(deps, userId, text, topicId);
  return { status: "open", text, topicId, ...(push ? { push } : {}) };
}

/**
 * Opens the oldest queued concern once the throttle window has passed, so a
 * concern that came too soon is brought up later instead of being lost.
 */
export async function releaseQueuedConcern(deps: ConcernDeps, userId: string): Promise<ConcernOutcome | undefined> {
  const now = deps.clock.now();
  if (throttled(deps, userId, now)) return undefined;
  const queued = deps.topics.list(userId, "queued").filter((t) => t.kind === "concern");
  const oldest = queued.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id)[0];
  if (!oldest) return undefined;
  const iso = now.toISOString();
  deps.topics.openQueued(oldest.id, iso, iso);
  deps.settings.set(LAST_CONCERN_KEY, iso, iso, userId);
  deps.logger.info("queued concern is now open", { userId, topicId: oldest.id });
  const push = await pushConcern(deps, userId, oldest.text, oldest.id);
  return { status: "open", text: oldest.text, topicId: oldest.id, ...(push ? { push } : {}) };
}

function throttled(deps: ConcernDeps, userId: string, now: Date): boolean {
  const last = deps.settings.get(LAST_CONCERN_KEY, userId);
  if (!last) return false;
  return now.getTime() - Date.parse(last) < deps.config.reflection.concernMinHours * 3_600_000;
}

/** A concern topic, due now; a queued one becomes due when it is released. */
function insertTopic(deps: ConcernDeps, userId: string, text: string, status: "open" | "queued", now: Date): number {
  const iso = now.toISOString();
  return deps.topics.add(userId, text, "concern", iso, iso, status);
}

/**
 * The opt-in push of a concern that just became open. Delivered, it is in
 * the chat log as Lilo's own message (so the user's reply is understood) and
 * the topic is done: she raised it, the sheet must not ask her to raise it again.
 */
async function pushConcern(deps: ConcernDeps, userId: string, text: string, topicId: number): Promise<PushOutcome | undefined> {
  // Sent (and logged) even without an opt-in: the push log then says "not-opted-in".
  if (!deps.config.reflection.concernPing) return undefined;
  // Delivered (here or by the running bot, when queued from the CLI): stored as proactive, the topic done.
  return deps.push.send(userId, { kind: "concern", text }, { after: { proactive: { model: modelLabel(deps.models.forRole("reflection")) }, topicDone: topicId } });
}
