import { describeError } from "../../core/index.ts";
import type { MatrixContext } from "./context.ts";
import { encryptAttachment } from "./crypto/attachments.ts";
import { sendMarkdown } from "./send.ts";

/** The body clients without voice messages show. */
const BODY = "Voice message";

/**
 * The voice note beside an answer whose text has gone out already: an
 * `m.audio` message with the flags Element shows as a voice message
 * (org.matrix.msc3245.voice, org.matrix.msc1767.audio), its file encrypted
 * in an encrypted room. Nothing here throws: a voice note that cannot be
 * made or sent is logged, the text stands.
 */
export async function sendVoiceReply(ctx: MatrixContext, roomId: string, userId: string, answer: string): Promise<void> {
  const reply = await ctx.lilo.voice.reply(userId, answer);
  try {
    if (reply.kind === "text-only") {
      if (reply.note) await sendMarkdown(ctx.client, roomId, reply.note, ctx.maxMessageChars);
      return;
    }
    const encrypted = ctx.e2ee ? await ctx.e2ee.isEncrypted(roomId) : false;
    const sealed = encrypted ? encryptAttachment(reply.audio) : undefined;
    const uri = await ctx.client.uploadContent(Buffer.from(sealed?.data ?? reply.audio), sealed ? "application/octet-stream" : "audio/ogg", "voice.ogg");
    const duration = reply.durationMs;
    await ctx.client.sendMessage(roomId, {
      msgtype: "m.audio",
      body: BODY,
      filename: "voice.ogg",
      info: { mimetype: "audio/ogg", size: reply.audio.length, ...(duration !== undefined ? { duration } : {}) },
      ...(sealed ? { file: { ...sealed.file, url: uri } } : { url: uri }),
      "org.matrix.msc1767.audio": { ...(duration !== undefined ? { duration } : {}), waveform: [] },
      "org.matrix.msc3245.voice": {},
    });
    ctx.logger.info("matrix voice reply sent", { roomId, encrypted, chars: reply.spoken.length, bytes: reply.audio.length });
  } catch (err) {
    ctx.logger.warn("matrix voice reply not sent; the text stands", { roomId, error: describeError(err) });
  }
}
