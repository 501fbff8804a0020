/**
 * Fills the profile block fairly: every category gets a turn, round by
 * round, and within a category the entries most relevant to the message
 * (shared words) come first, then the newest. So 90 "person" facts can no
 * longer push the whole "work" category off the sheet, as the old
 * alphabetical fill did.
 */
import type { ProfileEntry } from "../../foundation/store/profile.ts";
import { searchWords } from "../../memory/recall/keyword-query.ts";

/** Characters one entry costs on the sheet ("; " or the category heading share). */
const ENTRY_OVERHEAD = 4;

/** What fitted and what was left out for the budget. */
interface ProfileFit {
  kept: ProfileEntry[];
  left: ProfileEntry[];
  /** Characters the kept entries cost, as counted against the budget. */
  usedChars: number;
}

/** Relevance of an entry to the message: how many of the message's search words it shares. */
function overlap(entry: ProfileEntry, words: Set<string>): number {
  return searchWords([entry.text]).filter((w) => words.has(w)).length;
}

/** Picks entries round-robin across categories within `maxChars`; kept entries stay grouped by category. */
export function fitProfile(entries: ProfileEntry[], maxChars: number, message: string): ProfileFit {
  const words = new Set(searchWords([message]));
  const byCategory = new Map<string, ProfileEntry[]>();
  for (const e of entries) byCategory.set(e.category, [...(byCategory.get(e.category) ?? []), e]);
  const queues = [...byCategory.values()].map((list) =>
    [...list].sort((a, b) => overlap(b, words) - overlap(a, words) || b.createdAt.localeCompare(a.createdAt) || b.id - a.id),
  );
  const kept = new Set<ProfileEntry>();
  let used = 0;
  for (let round = 0; queues.some((q) => q.length > round); round++) {
    for (const q of queues) {
      const e = q[round];
      if (!e) continue;
      const cost = e.text.length + ENTRY_OVERHEAD + (round === 0 ? e.category.length : 0);
      if (used + cost > maxChars) continue; // a shorter entry of another category may still fit
      kept.add(e);
      used += cost;
    }
  }
  return { kept: entries.filter((e) => kept.has(e)), left: entries.filter((e) => !kept.has(e)), usedChars: used };
}

/** The profile as sheet lines, one per category: "- work: a; b". */
export function renderProfileLines(entries: ProfileEntry[]): string {
  const byCategory = new Map<string, string[]>();
  for (const e of entries) byCategory.set(e.category, [...(byCategory.get(e.category) ?? []), e.text]);
  return [...byCategory].map(([c, texts]) => `- ${c}: ${texts.join("; ")}`).join("\n");
}
