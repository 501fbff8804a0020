/**
 * The memory part of a preview as text: each block with the scores of what
 * went on the sheet and what the budget left out, so a user can see why a
 * memory did or did not reach Lilo.
 */
import type { MemoryBlocks, SheetPassage } from "../../core/internal.ts";
import type { MemoryHit } from "../../core/index.ts";

const short = (text: string, max = 90) => {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};

function hitLine(h: MemoryHit): string {
  // A memory placed by its weight was not searched for: it has no similarity to show.
  const parts = h.weight !== undefined ? [`weight ${h.weight}`] : [`cos ${h.score.toFixed(2)}`];
  if (h.keyword !== undefined) parts.push(`bm25 ${h.keyword.toFixed(2)}`);
  if (h.fused !== undefined) parts.push(`fused ${h.fused.toFixed(4)}`);
  return `#${h.id} [${parts.join(", ")}] ${short(h.text)}`;
}

function passageLine(p: SheetPassage): string {
  const hits = p.messages.filter((m) => m.hit);
  const first = hits[0] ?? p.messages[0]!;
  const ids = p.messages.map((m) => `${m.hit ? "#" : "+"}${m.id}`).join(" ");
  return `messages ${ids} [score ${p.score.toFixed(3)}] ${first.localTime} ${short(hits.map((m) => m.text).join(" / "))}`;
}

function block<T>(title: string, b: { kept: T[]; left: T[] }, line: (t: T) => string): string[] {
  const out = [`${title}: ${b.kept.length} on the sheet${b.left.length ? `, ${b.left.length} left out for budget` : ""}`];
  for (const t of b.kept) out.push(`  + ${line(t)}`);
  for (const t of b.left) out.push(`  - ${line(t)}`);
  return out;
}

/** Lines describing every memory block of a preview. */
export function describeBlocks(b: MemoryBlocks): string[] {
  return [
    `memory part: ≈ ${b.usedTokens} of ${b.budgetTokens} tokens`,
    ...block("profile", b.profile, (e) => `#${e.id} ${e.category}: ${short(e.text)}`),
    ...block("important memories", b.important, hitLine),
    ...block("notes", b.notes, hitLine),
    ...block("passages from earlier conversations", b.passages, passageLine),
    ...block("thoughts", b.thoughts, hitLine),
  ];
}
