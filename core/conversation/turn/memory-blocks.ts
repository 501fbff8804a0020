/**
 * Chooses what of the memory goes on one cheat sheet, and what is left out
 * for budget: the profile (fair across categories), important memories
 * (all while they fit, else the most relevant), the top notes by hybrid
 * search, verbatim passages from earlier conversations (with their local
 * date and neighbouring turn), and thoughts. The whole memory part stays
 * under one budget (estimated tokens), whatever the store sizes.
 */
import type { LiloConfig } from "../../foundation/config/config.ts";
import type { Memory, MemoryHit } from "../../memory/memory.ts";
import type { ProfileEntry, ProfileStore } from "../../foundation/store/profile.ts";
import type { ChatRecallDeps } from "../../memory/recall/sheet-recall.ts";
import { sheetPassages } from "../../memory/recall/sheet-passages.ts";
import { passageCost, type SheetPassage } from "../../memory/recall/passage-packing.ts";
import { fitProfile } from "./profile-fit.ts";
import { CHARS_PER_TOKEN } from "./request-budget.ts";

/** Important memories looked at per turn; beyond this only the most relevant are considered. */
const IMPORTANT_SCAN = 200;

export type { SheetPassage } from "../../memory/recall/passage-packing.ts";
export { sheetMessageIds } from "../../memory/recall/passage-packing.ts";

/** One block: what is on the sheet, with scores, and what the budget left out. */
interface Block<T> {
  kept: T[];
  left: T[];
}

/** Everything the memory part of the sheet holds for one turn. */
export interface MemoryBlocks {
  profile: Block<ProfileEntry>;
  important: Block<MemoryHit>;
  notes: Block<MemoryHit>;
  passages: Block<SheetPassage>;
  thoughts: Block<MemoryHit>;
  /** Estimated tokens of the memory part and the budget it had. */
  usedTokens: number;
  budgetTokens: number;
}

interface MemoryBlockDeps {
  config: { memory: LiloConfig["memory"] };
  memory: Memory;
  profile: ProfileStore;
  chatRecall: ChatRecallDeps;
}

/** Takes items in order while they fit `maxChars` (and the shared budget); the rest is left out. */
function fill<T>(items: T[], cost: (t: T) => number, maxChars: number, budget: { left: number }): Block<T> {
  const kept: T[] = [];
  const left: T[] = [];
  let used = 0;
  for (const item of items) {
    const c = cost(item);
    if (used + c <= maxChars && c <= budget.left) {
      kept.push(item);
      used += c;
      budget.left -= c;
    } else left.push(item);
  }
  return { kept, left };
}

/**
 * Selects the memory blocks for a message. `shortTermChars` is charged to
 * the budget first (a new conversation's summary always goes on).
 */
export async function selectMemoryBlocks(
  deps: MemoryBlockDeps,
  q: { userId: string; text: string; conversationId: number; shortTermChars: number },
): Promise<MemoryBlocks> {
  const m = deps.config.memory;
  const { memory } = deps;
  const budgetChars = m.memoryBudgetTokens * CHARS_PER_TOKEN;
  const budget = { left: budgetChars - q.shortTermChars };
  // Undefined while the embedding model is missing: every block is then found by its words.
  const vector = await memory.vectorFor(q.text);
  const floor = memory.thresholds.notesMinScore;
  const [notes, thoughts, important] = await Promise.all([
    memory.searchHybrid(q.text, vector, { userId: q.userId, store: "notes", k: m.notesTopK, minScore: floor }),
    memory.searchHybrid(q.text, vector, { userId: q.userId, store: "thoughts", k: m.thoughtsTopK, minScore: m.thoughtsMinScore }),
    importantByRelevance(memory, q.userId, q.text, vector, m.importantMaxChars),
  ]);
  const line = (h: { text: string }) => h.text.length + 3;
  // Priority when the budget is short: important memories, profile, notes, passages, thoughts.
  const importantBlock = fill(important, line, m.importantMaxChars, budget);
  const profileFit = fitProfile(deps.profile.list(q.userId), Math.min(m.profileMaxChars, Math.max(0, budget.left)), q.text);
  budget.left -= profileFit.usedChars;
  // A note saying what an important memory on the sheet says already is not put on it a second time.
  const onSheet = new Set(importantBlock.kept.map((h) => sameText(h.text)));
  const notesBlock = fill(
    notes.filter((n) => !onSheet.has(sameText(n.text))),
    line,
    Number.POSITIVE_INFINITY,
    budget,
  );
  // Passages take what is left up to their cap, keeping room for the thoughts behind them.
  const thoughtsChars = Math.min(
    thoughts.reduce((n, t) => n + line(t), 0),
    Math.max(0, budget.left),
  );
  const passagesBlock = await sheetPassages(
    deps.chatRecall,
    q.text,
    { userId: q.userId, excludeConversationId: q.conversationId, vector },
    { maxChars: Math.max(0, Math.min(m.passagesMaxChars, budget.left - thoughtsChars)), maxPassages: m.passagesTopK },
  );
  budget.left -= passagesBlock.kept.reduce((n, p) => n + passageCost(p), 0);
  const thoughtsBlock = fill(thoughts, line, Number.POSITIVE_INFINITY, budget);
  return {
    profile: { kept: profileFit.kept, left: profileFit.left },
    important: importantBlock,
    notes: notesBlock,
    passages: passagesBlock,
    thoughts: thoughtsBlock,
    usedTokens: Math.ceil((budgetChars - budget.left) / CHARS_PER_TOKEN),
    budgetTokens: m.memoryBudgetTokens,
  };
}

/**
 * Important memories (docs/spec.md §3: "most important always"): all of them, by
 * weight and then newest, while they fit; when they do not, the most
 * relevant to the message first (hybrid search), then the rest by weight.
 */
async function importantByRelevance(memory: Memory, userId: string, text: string, vector: Float32Array | undefined, maxChars: number): Promise<MemoryHit[]> {
  const rows = memory.rows.important.list(userId, IMPORTANT_SCAN);
  const byWeight = [...rows].sort((a, b) => Number(b.extra.weight ?? 1) - Number(a.extra.weight ?? 1) || b.createdAt.localeCompare(a.createdAt));
  // Placed by weight: no similarity was measured, so none is claimed (score 0, the weight said as such).
  const asHit = (r: (typeof rows)[number]): MemoryHit => ({
    id: r.id,
    text: r.text,
    score: 0,
    weight: Number(r.extra.weight ?? 1),
    createdAt: r.createdAt,
    store: "important",
  });
  const total = rows.reduce((n, r) => n + r.text.length + 3, 0);
  if (total <= maxChars) return byWeight.map(asHit);
  const relevant = await memory.searchHybrid(text, vector, { userId, store: "important", k: 20 });
  const seen = new Set(relevant.map((h) => h.id));
  return [...relevant, ...byWeight.filter((r) => !seen.has(r.id)).map(asHit)];
}

/** Text compared for "the same memory": case, spacing and end punctuation aside. */
function sameText(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/g, " ")
    .replace(/[.!?\s]+$/, "")
    .trim();
}
