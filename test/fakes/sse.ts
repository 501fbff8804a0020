/**
 * Server-sent events for the fake model servers: a streamed answer goes out
 * as the vendor's events, one piece of text at a time, at a set pace, and
 * may break off after a number of pieces (a connection lost mid-answer).
 */
import type { ServerResponse } from "node:http";

/** How a fake streams one answer. */
export interface StreamPlan {
  /** The text in the pieces it arrives in; default pieces of about four characters. */
  pieces?: string[];
  /** Wait before each piece, in ms (a model writing at a set speed); default 0. */
  paceMs?: number;
  /** The connection is destroyed after this many pieces, without the end events. */
  dropAfter?: number;
}

/** The text cut into pieces of about `size` characters (a token is roughly four). */
export function piecesOf(text: string, size = 4): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** One event: its SSE `event:` name (Anthropic names them, OpenAI does not) and its JSON data, or a raw data line. */
export interface SseEvent {
  event?: string;
  data: unknown;
}

/**
 * Writes `head`, then one event list per piece (paced), then `tail`; stops
 * writing (the client is gone) when the response closes.
 */
export async function sendSse(res: ServerResponse, head: SseEvent[], perPiece: SseEvent[][], tail: SseEvent[], plan: StreamPlan = {}): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const write = (events: SseEvent[]) => {
    for (const e of events) res.write(`${e.event ? `event: ${e.event}\n` : ""}data: ${typeof e.data === "string" ? e.data : JSON.stringify(e.data)}\n\n`);
  };
  write(head);
  for (let i = 0; i < perPiece.length; i++) {
    if (plan.dropAfter !== undefined && i >= plan.dropAfter) {
      // What was written reaches the client first; then the connection breaks.
      await new Promise((r) => setTimeout(r, 30));
      res.socket?.destroy();
      return;
    }
    if (plan.paceMs) await new Promise((r) => setTimeout(r, plan.paceMs));
    if (res.destroyed || res.writableEnded) return;
    write(perPiece[i]!);
  }
  write(tail);
  res.end();
}
