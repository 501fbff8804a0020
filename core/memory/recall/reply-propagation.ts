/**
 * A question's answer is in the reply. When a ranked message asks something
 * ("What inspired you?", "Wie war's in Rom?"), the search's words match the
 * question, while what was actually said — the evidence — is the other
 * side's next message, which often shares none of them ("I visited an LGBTQ
 * center"). The keyword side reads neighbours only as a weaker column, and
 * the meaning side not at all, so the answer ranks far below its question.
 * Here the reply of a ranked question inherits the question's score and
 * ranks right after it: question and answer count as one exchange.
 */
import type { ChatSearch, RankedMessage } from "./search.ts";

/** A message asks something: a question mark in it (German and English alike). */
export function asksSomething(text: string): boolean {
  return text.includes("?");
}

/** How replies are raised: among the first `depth` hits, to `share` × the question's score, only those passing `keep` (the request's filters). */
export interface ReplyRaise {
  depth: number;
  share: number;
  keep: (m: { conversationId: number; createdAt: string }) => boolean;
}

/**
 * The ranking with the replies to its first `depth` questions raised to
 * `share` × the question's score (when that is higher than their own), best
 * first, named dates first as before. A second message by the same side is
 * no answer; the question keeps its place (it often says something itself).
 */
export function raiseReplies(search: ChatSearch, ranked: RankedMessage[], { depth, share, keep }: ReplyRaise): RankedMessage[] {
  if (!(share > 0) || !ranked.length) return ranked;
  const head = ranked.slice(0, depth);
  const steps = search.withNext(head.map((h) => h.id));
  const byId = new Map(ranked.map((h) => [h.id, h]));
  for (const h of head) {
    const step = steps.get(h.id);
    const reply = step?.next;
    if (!step || !reply || reply.role === step.row.role || !asksSomething(step.row.text)) continue;
    if (!keep({ conversationId: reply.conversation_id, createdAt: reply.created_at })) continue;
    const score = h.score * share;
    const own = byId.get(reply.id);
    if (own && own.score >= score) continue;
    // A reply keeps its own date match; one only the question brought is as near the named date as the question.
    byId.set(reply.id, {
      id: reply.id,
      conversationId: reply.conversation_id,
      createdAt: reply.created_at,
      score,
      inDateRange: own?.inDateRange ?? h.inDateRange,
    });
  }
  // Stable: a reply tied with its question stays after it (the question came first in the ranking).
  return [...byId.values()].sort((a, b) => Number(b.inDateRange) - Number(a.inDateRange) || b.score - a.score);
}
