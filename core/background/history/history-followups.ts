/**
 * Follow-up topics from an imported chat. A plan from a chat of years ago is
 * no follow-up: asking how last spring's dentist appointment went would be
 * wrong. So only a conversation that ended recently is asked for follow-ups
 * at all, and a follow-up becomes a topic only while the moment to ask about
 * it still lies ahead.
 */
import type { TopicsStore } from "../../foundation/store/topics.ts";
import type { BoundaryGuard } from "../../memory/boundaries/boundaries.ts";
import { addDays, localMidnight } from "../../foundation/util/time.ts";

const DAY_MS = 86_400_000;

/** A follow-up as the extraction names it: what to ask about, and the day it happens if the chat says. */
export interface HistoryFollowup {
  text: string;
  /** YYYY-MM-DD, already checked to be a calendar day. */
  date: string | undefined;
}

/** When follow-ups are asked for and when they fall due. */
export interface FollowupRules {
  /** A conversation whose last message is older than this many days gives none; 0: none ever. */
  recentDays: number;
  /** A follow-up without a day falls due this many days after the conversation ended, as a live [FOLLOWUP:] does after it was said. */
  followupDueDays: number;
  timeZone: string;
}

/** Whether a conversation that ended at `end` is recent enough to be asked for follow-ups. */
export function asksForFollowups(end: string | undefined, now: Date, rules: Pick<FollowupRules, "recentDays">): boolean {
  if (rules.recentDays <= 0 || end === undefined) return false;
  const t = Date.parse(end);
  return Number.isFinite(t) && now.getTime() - t <= rules.recentDays * DAY_MS;
}

/**
 * The moment a follow-up falls due: the local midnight after its day, so
 * Lilo asks how it went once it has happened; without a day, as a live
 * follow-up, `followupDueDays` after the conversation ended. Undefined when
 * that moment has passed: the chance to ask is gone.
 */
export function followupDue(item: HistoryFollowup, end: string, now: Date, rules: FollowupRules): string | undefined {
  const due = item.date ? localMidnight(addDays(item.date, 1), rules.timeZone) : new Date(Date.parse(end) + rules.followupDueDays * DAY_MS);
  return due.getTime() > now.getTime() ? due.toISOString() : undefined;
}

/**
 * Writes the follow-ups still ahead as open topics with the import as their
 * origin; one the person set a boundary around, or an open topic of the same
 * text (a piece read again after a kill), is left out. Returns how many were written.
 */
export function writeFollowups(
  d: { topics: TopicsStore; boundaries?: BoundaryGuard | undefined },
  userId: string,
  items: HistoryFollowup[],
  at: { ref: string; end: string; now: Date; rules: FollowupRules },
): number {
  const check = d.boundaries?.for(userId);
  const open = new Set(d.topics.list(userId, "open").map((t) => t.text));
  let written = 0;
  for (const item of items) {
    const due = followupDue(item, at.end, at.now, at.rules);
    if (!due || open.has(item.text) || check?.about(item.text)) continue;
    d.topics.add(userId, item.text, "followup", due, at.now.toISOString(), "open", { kind: "import", ref: at.ref });
    open.add(item.text);
    written++;
  }
  return written;
}
