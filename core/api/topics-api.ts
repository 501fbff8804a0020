import type { Clock } from "../foundation/ports/clock.ts";
import type { Topic, TopicsStore } from "../foundation/store/topics.ts";

/** Topics Lilo brings up later (follow-ups and concerns). */
export interface TopicsApi {
  /** One user's topics with this status (default open), oldest due first. */
  list(userId: string, status?: Topic["status"]): Topic[];
  get(id: number): Topic | undefined;
  /** Adds a topic due at `dueAt` (ISO); returns its id. */
  add(userId: string, text: string, kind: Topic["kind"], dueAt: string, status?: "open" | "queued"): number;
  /** Marks an open topic as addressed in conversation; false when it was not open. */
  markDone(id: number): boolean;
  /** Marks an open or queued topic done by hand (`lilo topics done`); false when there is none. */
  finish(id: number): boolean;
  edit(id: number, text: string): boolean;
  delete(id: number): boolean;
}

/** Builds the topics use cases; times come from the clock. */
export function topicsApi(topics: TopicsStore, clock: Clock): TopicsApi {
  const now = () => clock.now().toISOString();
  return {
    list: (userId, status) => topics.list(userId, status),
    get: (id) => topics.get(id),
    add: (userId, text, kind, dueAt, status) => topics.add(userId, text, kind, dueAt, now(), status),
    markDone: (id) => topics.markDone(id, now()),
    finish: (id) => topics.finish(id, now()),
    edit: (id, text) => topics.edit(id, text, now()),
    delete: (id) => topics.delete(id),
  };
}
