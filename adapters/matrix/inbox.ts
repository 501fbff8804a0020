import { WatchedMatrixClient } from "./client.ts";
import { describeError, type Lilo, type Logger } from "../../core/index.ts";
import type { MatrixContext } from "./context.ts";
import { isCommand } from "./commands.ts";
import { isMedia, messageText, type Gate, type RawEvent } from "./events.ts";
import { caption, downloadAudio } from "./media.ts";
import type { SyncedRoom } from "./privacy.ts";
import { deliverTurn } from "./reply.ts";
import { sendMarkdown } from "./send.ts";
import { photoMessageText, voicePlaceholder } from "../shared/media-texts.ts";
import { resumeVoice } from "../shared/media.ts";

/** The transport name Matrix messages are stored under. */
export const MATRIX_TRANSPORT = "matrix";

/**
 * A MatrixClient that hands every sync response to `onSync` before the SDK
 * goes on. The SDK saves the sync token right after `doSync` returns and
 * only then emits the events; storing the messages here means the token
 * that confirms a message is never saved before the message is.
 */
export class DurableSyncClient extends WatchedMatrixClient {
  onSync: ((response: unknown) => Promise<void>) | undefined;

  protected override async doSync(token: string): Promise<unknown> {
    const response: unknown = await super.doSync(token);
    // A failure propagates: the SDK backs off and syncs again from the old token.
    await this.onSync?.(response);
    return response;
  }
}

type SyncResponse = {
  rooms?: { join?: Record<string, { timeline?: { events?: RawEvent[]; limited?: boolean }; state?: { events?: SyncedRoom["stateEvents"] } }> };
};

/**
 * Reads a sync before the SDK emits its events: follows each joined room's
 * members (a gap or a member change in `state` has them asked of the
 * server again; member events of the timeline are replayed in order),
 * judges each event of an allowed user once, in that order, for its
 * handler, and stores the messages the handlers will answer (text; an image
 * as its caption, as Telegram's photos; an audio message as a placeholder
 * with its `mxc://` URL, which its turn or a restart replaces with the
 * transcript): allowed users in allowed rooms that are private (Lilo and
 * that one user), newer than the gate's start, no commands. A message in a
 * shared room is never stored, so a restart can never answer it there.
 */
export async function storeSync(lilo: Lilo, ctx: Pick<MatrixContext, "state" | "privacy">, gate: Gate, response: unknown): Promise<void> {
  const joined = (response as SyncResponse).rooms?.join ?? {};
  for (const [roomId, room] of Object.entries(joined)) {
    await ctx.privacy.syncRoom(roomId, { limited: room.timeline?.limited === true, stateEvents: room.state?.events ?? [] });
    const allowedRoom = ctx.state.isAllowedRoom(roomId);
    const since = Math.max(gate.notBefore, gate.invitedAt.get(roomId) ?? 0);
    for (const ev of room.timeline?.events ?? []) {
      if (ev.type === "m.room.member") await ctx.privacy.memberEvent(roomId, (ev as { state_key?: string }).state_key, ev.content?.membership);
      const userId = gate.allowedUsers[ev.sender];
      if (!allowedRoom || !userId || ev.sender === gate.botUserId || ev.type === "m.room.member") continue;
      if (since && (ev.origin_server_ts ?? 0) < since) continue;
      if ((await ctx.privacy.judge(roomId, ev.event_id)) !== ev.sender || ev.type !== "m.room.message") continue;
      const text = arrivalText(ev.content ?? {}, lilo.config.persona.language);
      if (!text || isCommand(text)) continue;
      lilo.inbox.receive({ userId, text, transport: MATRIX_TRANSPORT, chatId: roomId, externalId: ev.event_id });
    }
  }
}

/** The text a message is stored with on arrival, as its handler will hand it to the turn; undefined for what is not stored. */
function arrivalText(content: Record<string, unknown>, language: "de" | "en"): string | undefined {
  if (!isMedia(content)) return messageText(content);
  if (content.msgtype === "m.image") return photoMessageText(language, caption(content));
  if (content.msgtype === "m.audio" && typeof content.url === "string") return voicePlaceholder(language, content.url);
  return undefined;
}

/**
 * On start, before syncing: answers every stored Matrix message whose turn a
 * crash or stop interrupted (in order, once; a voice note is fetched again
 * and transcribed first), and sends answers that were stored but not
 * delivered. Returns how many it finished. The room's members are asked of
 * the server first (the cache is empty at start): a room that stopped being
 * private meanwhile gets nothing, and its messages stay open for a later start.
 */
export async function resumeMatrix(ctx: MatrixContext, allowedUsers: Record<string, string>, logger: Logger): Promise<number> {
  let finished = 0;
  for (const open of ctx.lilo.inbox.unfinished(MATRIX_TRANSPORT)) {
    if (!open.chatId) continue;
    const roomId = open.chatId;
    const partner = await ctx.privacy.partner(roomId);
    if (!partner || allowedUsers[partner] !== open.message.userId) {
      logger.warn("matrix: a stored message stays open, its room is not private now", { messageId: open.message.id, roomId });
      continue;
    }
    try {
      const say = (reply: string) => sendMarkdown(ctx.client, roomId, reply, ctx.maxMessageChars);
      if (!(await resumeVoice(ctx.lilo, logger, open, (url) => downloadAudio(ctx, url), say))) continue;
      const result = await ctx.lilo.inbox.finish(open.message.id);
      if (!result) continue;
      await deliverTurn(ctx, { roomId: open.chatId, eventId: open.externalId ?? "", sender: "", userId: open.message.userId }, result);
      finished++;
    } catch (err) {
      logger.error("matrix: a stored message could not be finished", { messageId: open.message.id, error: describeError(err) });
    }
  }
  if (finished) logger.info("matrix: finished messages stored before the restart", { count: finished });
  return finished;
}
