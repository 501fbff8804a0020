import type { Clock } from "../foundation/ports/clock.ts";
import type { Boundary, BoundariesStore } from "../foundation/store/boundaries.ts";

export type { Boundary } from "../foundation/store/boundaries.ts";

/** Boundaries: topics Lilo never brings up on her own. The yes/no flow adds them in chat; the operator here. */
export interface BoundariesApi {
  list(userId: string): Boundary[];
  get(id: number): Boundary | undefined;
  /** Adds a boundary; returns its id (the same text twice is one). */
  add(userId: string, text: string): number;
  /** False when there is no such boundary. */
  delete(id: number): boolean;
}

/** The boundaries use cases; times come from the clock. */
export function boundariesApi(store: BoundariesStore, clock: Clock): BoundariesApi {
  return {
    list: (userId) => store.list(userId),
    get: (id) => store.get(id),
    add: (userId, text) => store.add(userId, text, clock.now().toISOString()),
    delete: (id) => store.delete(id),
  };
}
