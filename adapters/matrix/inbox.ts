import { WatchedMatrixClient } from "./client.ts";
import { describeError, type Lilo, type Logger } from "../../core/index.ts";
import type { MatrixContext } from "./context.ts";
import { isCommand } from "./commands.ts";
import { isMedia, messageText, type Gate, type RawEvent } from "./events.ts";
import { caption, downloadAudio } from "./media.ts";
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

type SyncResponse = { rooms?: { join?: Record<string, { timeline?: { events?: RawEvent[] } }> } };

/**
 * Stores the messages of a sync that the event handlers will answer (text;
 * an image as its caption, as Telegram's photos; an audio message as a
 * placeholder with its `mxc://` URL, which its turn or a restart replaces
 * with the transcript):
 * allowed users in allowed rooms that are private (Lilo and that one user,
 * judged with the room's member events replayed in timeline order, as the
 * handlers do), newer than the gate's start, no commands. A message in a
 * shared room is never stored, so a restart can never answer it there.
 */
export async function storeSync(lilo: Lilo, ctx: Pick<MatrixContext, "state" | "privacy">, gate: Gate, response: unknown): Promise<void> {
  const joined = (response as SyncResponse).rooms?.join ?? {};
  for (const [roomId, room] of Object.entries(joined)) {
    if (!ctx.state.isAllowedRoom(roomId)) continue;
    const since = Math.max(gate.notBefore, gate.invitedAt.get(roomId) ?? 0);
    for (const ev of room.timeline?.events ?? []) {
      if (ev.type === "m.room.member") await ctx.privacy.memberEvent(roomId, (ev as { state_key?: string }).state_key, ev.content?.membership);
      const userId = gate.allowedUsers[ev.sender];
      if (!userId || ev.sender === gate.botUserId || ev.type !== "m.room.message") continue;
      if (since && (ev.origin_server_ts ?? 0) < since) continue;
      const text = arrivalText(ev.content ?? {}, lilo.config.persona.language);
      if (!text || isCommand(text)) continue;
      if ((await ctx.privacy.partner(roomId)) !== ev.sender) continue;
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
 * delivered. Returns how many it finished.
 */
export async function resumeMatrix(ctx: MatrixContext, logger: Logger): Promise<number> {
  let finished = 0;
  for (const open of ctx.lilo.inbox.unfinished(MATRIX_TRANSPORT)) {
    if (!open.chatId) continue;
    const roomId = open.chatId;
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
