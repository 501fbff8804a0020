import type { Memory } from "./memory.ts";

import type { VectorStore } from "../foundation/ports/vector-index.ts";

/** The stores `lilo dedupe` looks at. The diary is never deduplicated (docs/spec.md §11): two nights may well read alike, and each is a day of its own. */
export const DEDUPE_STORES = ["notes", "important", "thoughts"] as const satisfies readonly VectorStore[];
export type DedupeStore = (typeof DEDUPE_STORES)[number];

/** One set of live entries with the same user, store and trimmed text: the oldest (`keep`) stays. */
export interface DuplicateGroup {
  store: DedupeStore;
  userId: string;
  text: string;
  keep: { id: number; createdAt: string };
  remove: { id: number; createdAt: string }[];
}

/** Exact duplicates only (identical after trim), never by similarity; one user's or (userId undefined) everyone's. */
export function findDuplicates(memory: Memory, store: DedupeStore, userId: string | undefined): DuplicateGroup[] {
  const byKey = new Map<string, { id: number; createdAt: string; userId: string; text: string }[]>();
  for (const page of memory.rows[store].iterateLive()) {
    for (const r of page) {
      if (userId !== undefined && r.userId !== userId) continue;
      const key = JSON.stringify([r.userId, r.text.trim()]);
      const same = byKey.get(key) ?? [];
      same.push({ id: r.id, createdAt: r.createdAt, userId: r.userId, text: r.text.trim() });
      byKey.set(key, same);
    }
  }
  const groups: DuplicateGroup[] = [];
  for (const same of byKey.values()) {
    if (same.length < 2) continue;
    // Oldest first, so index 0 is kept.
    same.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
    const [keep, ...remove] = same.map(({ id, createdAt }) => ({ id, createdAt }));
    groups.push({ store, userId: same[0]!.userId, text: same[0]!.text, keep: keep!, remove });
  }
  return groups;
}
