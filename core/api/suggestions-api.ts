import type { Clock } from "../foundation/ports/clock.ts";
import type { SuggestionsStore } from "../foundation/store/suggestions.ts";

/** An idea Lilo had for improving herself (`[[VORSCHLAG:]]`). */
interface Suggestion {
  id: number;
  userId: string;
  text: string;
  createdAt: string;
}

/** Lilo's improvement ideas, for the operator to read and clear. */
export interface SuggestionsApi {
  /** Newest first; one user's or everyone's. */
  list(userId?: string): Suggestion[];
  add(userId: string, text: string): number;
  /** False when there is no such idea. */
  delete(id: number): boolean;
}

/** Builds the suggestions use cases; times come from the clock. */
export function suggestionsApi(suggestions: SuggestionsStore, clock: Clock): SuggestionsApi {
  return {
    list: (userId) => suggestions.list(userId),
    add: (userId, text) => suggestions.add(userId, text, clock.now().toISOString()),
    delete: (id) => suggestions.delete(id),
  };
}
