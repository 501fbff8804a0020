import type { MatrixClient } from "matrix-bot-sdk";
import { describeError, type Logger } from "../../core/index.ts";
import { normalizeText } from "../../core/internal.ts";
import { MAX_EVENT_BYTES, renderMatrix, type RenderedMessage } from "./format.ts";

/** Typing notifications last this long on the server; refreshed before they run out. */
const TYPING_MS = 30_000;

/**
 * Sends Markdown as `m.text` messages with a plain `body` and safe HTML
 * `formatted_body`, split at `maxChars`. Returns the event ids in order.
 */
export async function sendMarkdown(client: MatrixClient, roomId: string, markdown: string, maxChars: number): Promise<string[]> {
  const ids: string[] = [];
  for (const part of renderMatrix(normalizeText(markdown), maxChars)) {
    ids.push(await client.sendMessage(roomId, messageContent(part)));
  }
  return ids;
}

/** The `m.text` content of one rendered part: plain `body`, safe HTML `formatted_body`. */
export function messageContent(part: RenderedMessage): Record<string, unknown> {
  return { msgtype: "m.text", body: part.body, format: "org.matrix.custom.html", formatted_body: part.html };
}

/** How much of the text an edit's fallback keeps when the whole would make the event too large. */
const SHORT_FALLBACK_CHARS = 200;

/**
 * An `m.replace` edit of `eventId` to `part`. Clients that know edits show
 * `m.new_content`; the `* `-prefixed fallback is for those that do not. An
 * edit carries the text twice, so for a long part the fallback is cut short
 * to keep the event under the server's size limit.
 */
export function editContent(eventId: string, part: RenderedMessage): Record<string, unknown> {
  const fresh = messageContent(part);
  const whole = Buffer.byteLength(part.body) + Buffer.byteLength(part.html);
  const fallback =
    2 * whole > MAX_EVENT_BYTES
      ? { msgtype: "m.text", body: `* ${part.body.slice(0, SHORT_FALLBACK_CHARS)}…` }
      : { ...fresh, body: `* ${part.body}`, formatted_body: `* ${part.html}` };
  return { ...fallback, "m.new_content": fresh, "m.relates_to": { rel_type: "m.replace", event_id: eventId } };
}

/** Puts an annotation (reaction) with `key` on `eventId`; returns the reaction's event id. */
export function sendReaction(client: MatrixClient, roomId: string, eventId: string, key: string): Promise<string> {
  return client.sendEvent(roomId, "m.reaction", { "m.relates_to": { rel_type: "m.annotation", event_id: eventId, key } });
}

/**
 * Shows "Lilo is typing" while `work` runs. Typing is cosmetic: its
 * failures are logged and never fail the work.
 */
export async function withTyping<T>(client: MatrixClient, logger: Logger, roomId: string, work: () => Promise<T>): Promise<T> {
  const set = (typing: boolean) =>
    client.setTyping(roomId, typing, TYPING_MS).catch((err: unknown) => logger.debug("matrix typing failed", { roomId, error: describeError(err) }));
  await set(true);
  const refresh = setInterval(() => void set(true), TYPING_MS - 5_000);
  try {
    return await work();
  } finally {
    clearInterval(refresh);
    await set(false);
  }
}
