import type { Clock } from "../foundation/ports/clock.ts";
import type { ProfileEntry, ProfileStore } from "../foundation/store/profile.ts";

/** The profile (store 2): short facts about a user by category, always on the cheat sheet. */
export interface ProfileApi {
  list(userId: string): ProfileEntry[];
  /** Adds a fact by hand (the operator: its provenance) unless the same text is already in that category; returns its id. */
  add(userId: string, category: string, text: string): { id: number; added: boolean };
  /** Changes one of the user's facts; false when the user has no such fact. */
  update(userId: string, id: number, text: string): boolean;
  /** Deletes one of the user's facts; false when the user has no such fact. */
  delete(userId: string, id: number): boolean;
}

/** Builds the profile use cases; times come from the clock. */
export function profileApi(profile: ProfileStore, clock: Clock): ProfileApi {
  const now = () => clock.now().toISOString();
  return {
    list: (userId) => profile.list(userId),
    add: (userId, category, text) => profile.add(userId, category, text, now(), { kind: "operator" }),
    update: (userId, id, text) => profile.update(userId, id, text, now()),
    delete: (userId, id) => profile.delete(userId, id),
  };
}
