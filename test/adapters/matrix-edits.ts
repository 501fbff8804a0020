/** Reading the bot's messages and their `m.replace` edits in the fake homeserver's log. */
import type { FakeMatrix, SentEvent } from "../fakes/fake-matrix.ts";

/** The bot's `m.room.message` events (messages and edits) in `roomId`, sent after index `from`. */
export const botMessages = (hs: FakeMatrix, roomId: string, from = 0): SentEvent[] =>
  hs.sent.slice(from).filter((e) => e.roomId === roomId && e.type === "m.room.message");

/** What a client that knows edits shows: each message sent after `from` with its last edit applied, in the order they were sent. */
export function appliedEdits(hs: FakeMatrix, roomId: string, from = 0): Record<string, unknown>[] {
  return appliedEditsOf(botMessages(hs, roomId, from), new Set(hs.redactions.map((r) => r.eventId)));
}

/** The same over any list of decrypted message events (an encrypted room read by the user's client). */
export function appliedEditsOf(events: { eventId: string; content: Record<string, unknown> }[], redacted: Set<string> = new Set()): Record<string, unknown>[] {
  const shown = new Map<string, Record<string, unknown>>();
  for (const e of events) {
    const relation = e.content["m.relates_to"] as { rel_type?: string; event_id?: string } | undefined;
    if (relation?.rel_type === "m.replace" && relation.event_id && shown.has(relation.event_id)) {
      shown.set(relation.event_id, e.content["m.new_content"] as Record<string, unknown>);
    } else if (!relation) shown.set(e.eventId, e.content);
  }
  return [...shown].filter(([id]) => !redacted.has(id)).map(([, content]) => content);
}
