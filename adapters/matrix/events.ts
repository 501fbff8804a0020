import { describeError, type IncomingMessage } from "../../core/index.ts";
import { isCancelled } from "../../core/internal.ts";
import { onMediaMessage, onSticker } from "./media.ts";
import type { MatrixContext, MatrixEventSource } from "./context.ts";
import { runCommand } from "./commands.ts";
import { handleReaction } from "./questions.ts";
import { deliverTurn } from "./reply.ts";
import { withTyping } from "./send.ts";
import { liveAnswer } from "./live-answer.ts";

/** The fields of a raw Matrix event the adapter reads. */
export interface RawEvent {
  event_id: string;
  type: string;
  sender: string;
  origin_server_ts?: number;
  content?: Record<string, unknown>;
}

/** Who may talk to Lilo, and what the bot itself is called. */
export interface Gate {
  botUserId: string;
  /** Matrix user id → Lilo user id. */
  allowedUsers: Record<string, string>;
  /** Events older than this (ms) are history from the first sync and stay unanswered; 0 = none. */
  notBefore: number;
  /**
   * Room id → when the bot was invited there (server time). The first sync
   * after joining shows the room's earlier messages too: history, not
   * messages to Lilo.
   */
  invitedAt: Map<string, number>;
}

/**
 * An invitation: accepted from an allowed user (the room becomes allowed),
 * rejected from anyone else.
 */
export async function onInvite(ctx: MatrixContext, gate: Gate, roomId: string, ev: RawEvent): Promise<void> {
  if (!gate.allowedUsers[ev.sender]) {
    ctx.logger.info("matrix invitation rejected", { roomId, from: ev.sender });
    await ctx.client.leaveRoom(roomId);
    return;
  }
  if (typeof ev.origin_server_ts === "number") gate.invitedAt.set(roomId, ev.origin_server_ts);
  await ctx.client.joinRoom(roomId);
  await ctx.state.allowRoom(roomId, ev.sender);
  ctx.logger.info("matrix room joined", { roomId, invitedBy: ev.sender });
}

/**
 * A timeline event. Only allowed users in allowed rooms that are private
 * (Lilo and that one user) get anything: the bot's own events, strangers,
 * other rooms and shared rooms are dropped before anything is stored or
 * sent to a model. Membership was followed, and the event judged, when its
 * sync was read (`storeSync`); this uses that verdict.
 */
export async function onEvent(ctx: MatrixContext, gate: Gate, roomId: string, ev: RawEvent): Promise<void> {
  const userId = gate.allowedUsers[ev.sender];
  if (ev.sender === gate.botUserId || !userId || !ctx.state.isAllowedRoom(roomId)) return;
  const since = Math.max(gate.notBefore, gate.invitedAt.get(roomId) ?? 0);
  if (since && (ev.origin_server_ts ?? 0) < since) return;
  if (ev.type === "m.room.member") return;
  const partner = await ctx.privacy.partnerFor(roomId, ev.event_id);
  if (partner !== ev.sender) {
    // Nothing of anyone's memory in a shared room: one notice, then silence.
    if (!partner && ctx.privacy.firstNotice(roomId)) await ctx.client.sendText(roomId, ctx.texts.notPrivate);
    return;
  }
  const source: MatrixEventSource = { roomId, eventId: ev.event_id, sender: ev.sender, userId };
  const content = ev.content ?? {};
  if (ev.type === "m.room.encrypted") {
    // Without end-to-end encryption the bot cannot read these; say so once per room.
    if (await ctx.state.firstEncryptedWarning(roomId)) await ctx.client.sendText(roomId, ctx.texts.encrypted);
    return;
  }
  if (ev.type === "m.reaction") return handleReaction(ctx, source, (content["m.relates_to"] ?? {}) as Record<string, unknown>);
  if (ev.type === "m.sticker") return onSticker(ctx, source);
  if (ev.type !== "m.room.message") return void ctx.logger.debug("matrix event not handled", { roomId, type: ev.type });
  const answer = (message: IncomingMessage, voiceIn?: boolean) => answerTurn(ctx, source, message, voiceIn);
  if (isMedia(content)) return onMediaMessage(ctx, source, content, answer);
  const text = messageText(content);
  if (!text || (await runCommand(ctx, source, text))) return;
  await answer({ userId, text, transport: "matrix", chatId: roomId, externalId: ev.event_id });
}

/** A message Lilo answers as media: any type but text, notice and emote, and not an edit (the original was answered). */
export function isMedia(content: Record<string, unknown>): boolean {
  const relation = content["m.relates_to"] as { rel_type?: string } | undefined;
  return typeof content.msgtype === "string" && !["m.text", "m.notice", "m.emote"].includes(content.msgtype) && relation?.rel_type !== "m.replace";
}

/**
 * One core turn with typing, the answer shown as it is written (LiveAnswer),
 * then the final answer; a failure outside the model gets a short note, in
 * place of what was shown of the answer.
 */
async function answerTurn(ctx: MatrixContext, source: MatrixEventSource, message: IncomingMessage, voiceIn = false): Promise<void> {
  const { roomId } = source;
  const live = liveAnswer(ctx, roomId);
  try {
    const result = await withTyping(ctx.client, ctx.logger, roomId, () => ctx.lilo.handleMessage(message, { stream: live.stream }));
    await deliverTurn(ctx, source, result, { live, voiceIn });
  } catch (err) {
    // Stopped past the grace time: the message waits in the inbox and is answered after the restart, so a half answer shown now is taken back.
    if (isCancelled(err)) {
      await live.discard();
      return ctx.logger.info("matrix turn cancelled on stop", { roomId });
    }
    // Model failures come back as ok:false answers; this is anything else (storage, network to Matrix).
    ctx.logger.error("matrix turn failed", { roomId, error: describeError(err) });
    const note = ctx.texts.failed(describeError(err, ctx.lilo.config.persona.language));
    // Edits what was shown into the note, or sends it anew; either way no draft is left pending.
    await live.finish(note);
  }
}

/**
 * The user's words in an `m.text` message; undefined for edits (the
 * original was answered), notices and media. A reply's quoted fallback
 * ("> <@user> ...") is cut off so only the new text reaches Lilo.
 */
export function messageText(content: Record<string, unknown>): string | undefined {
  if (content.msgtype !== "m.text" || typeof content.body !== "string") return undefined;
  const relation = content["m.relates_to"] as { rel_type?: string; "m.in_reply_to"?: unknown } | undefined;
  if (relation?.rel_type === "m.replace") return undefined;
  let body = content.body;
  if (relation?.["m.in_reply_to"]) {
    const lines = body.split("\n");
    let i = 0;
    while (i < lines.length && lines[i]!.startsWith(">")) i++;
    body = lines.slice(i).join("\n");
  }
  return body.trim() || undefined;
}
