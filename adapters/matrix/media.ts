import { describeError, LiloError, type AudioInput, type ImageInput, type IncomingMessage } from "../../core/index.ts";
import { MEDIA_TEXTS, photoMessageText, voicePlaceholder } from "../shared/media-texts.ts";
import { chatModelSeesImages, transcribeStored, transcribeVoice } from "../shared/media.ts";
import type { MatrixContext, MatrixEventSource } from "./context.ts";
import { decryptAttachment, encryptedFile } from "./crypto/attachments.ts";
import { sendMarkdown } from "./send.ts";

/** Runs one turn for a message and shows the answer (events.ts); `voiceIn`: the message was a voice note. */
export type AnswerTurn = (message: IncomingMessage, voiceIn?: boolean) => Promise<void>;

/** Matrix message types Lilo does not open, named as the shared media texts name them. */
const OTHER_KINDS: Record<string, string> = { "m.file": "document", "m.video": "video", "m.location": "location" };

/**
 * A media message in an allowed private room (anything but m.text, m.notice
 * and m.emote): an image goes to the model with its caption, an audio
 * message as its transcript, anything else gets a short reply and a log line.
 */
export async function onMediaMessage(ctx: MatrixContext, source: MatrixEventSource, content: Record<string, unknown>, answer: AnswerTurn): Promise<void> {
  const { lilo, logger } = ctx;
  const t = MEDIA_TEXTS[lilo.config.persona.language];
  const say = (text: string) => sendMarkdown(ctx.client, source.roomId, text, ctx.maxMessageChars);
  const base = { userId: source.userId, transport: "matrix", chatId: source.roomId, externalId: source.eventId };
  const msgtype = String(content.msgtype ?? "");
  if (msgtype === "m.image") {
    const message = { ...base, text: photoMessageText(lilo.config.persona.language, caption(content)) };
    if (!chatModelSeesImages(lilo)) return answer({ ...message, unseenImages: true });
    let images: ImageInput[] | undefined;
    try {
      const { data, contentType } = await download(ctx, content, lilo.config.media.maxImageBytes);
      images = [{ mediaType: mimeOf(content) ?? contentType ?? "image/jpeg", data: data.toString("base64") }];
    } catch (err) {
      logger.warn("matrix image not downloaded; answering its caption", { roomId: source.roomId, error: describeError(err) });
      await say(t.photoFailed);
    }
    return answer(images ? { ...message, images } : message);
  }
  if (msgtype === "m.audio") {
    const audio = async (): Promise<AudioInput> => ({
      data: (await download(ctx, content, lilo.config.media.maxAudioBytes)).data,
      fileName: typeof content.filename === "string" ? content.filename : "voice.ogg",
      mediaType: mimeOf(content) ?? "audio/ogg",
    });
    if (typeof content.url !== "string") {
      // Nothing to fetch again after a restart (encrypted media): not stored, the short reply says why.
      const outcome = await transcribeVoice(lilo, logger, audio);
      if ("reply" in outcome) return void (await say(outcome.reply));
      return answer({ ...base, text: outcome.text }, true);
    }
    // Stored with the sync as its placeholder (inbox.ts); this finds that row (or stores it).
    const stored = lilo.inbox.receive({ ...base, text: voicePlaceholder(lilo.config.persona.language, content.url) });
    const text = await transcribeStored(lilo, logger, stored.messageId, audio, say);
    if (text !== undefined) return answer({ ...base, text }, true);
    return;
  }
  const kind = OTHER_KINDS[msgtype] ?? msgtype;
  logger.info("matrix message kind not supported; short reply sent", { roomId: source.roomId, msgtype });
  await say(t.unsupported(kind));
}

/** A sticker event (`m.sticker`, not a room message): the short reply. */
export async function onSticker(ctx: MatrixContext, source: MatrixEventSource): Promise<void> {
  ctx.logger.info("matrix sticker answered with a short reply", { roomId: source.roomId });
  await sendMarkdown(ctx.client, source.roomId, MEDIA_TEXTS[ctx.lilo.config.persona.language].sticker(undefined), ctx.maxMessageChars);
}

/** A voice note stored before a restart, fetched again by its `mxc://` URL for its transcript (inbox.ts). */
export async function downloadAudio(ctx: MatrixContext, url: string): Promise<AudioInput> {
  return { data: (await download(ctx, { url }, ctx.lilo.config.media.maxAudioBytes)).data, fileName: "voice.ogg", mediaType: "audio/ogg" };
}

/** Since Matrix 1.10 `body` is a caption when a separate `filename` is given; otherwise it is only the file name. */
export function caption(content: Record<string, unknown>): string | undefined {
  const { body, filename } = content;
  return typeof body === "string" && typeof filename === "string" && body !== filename ? body : undefined;
}

function mimeOf(content: Record<string, unknown>): string | undefined {
  const mime = (content.info as { mimetype?: unknown } | undefined)?.mimetype;
  return typeof mime === "string" ? mime : undefined;
}

/**
 * The media behind an `mxc://` URL, through the client's media API, up to
 * `maxBytes`; an encrypted attachment (`file` with its key) is opened with it.
 */
async function download(ctx: MatrixContext, content: Record<string, unknown>, maxBytes: number): Promise<{ data: Buffer; contentType: string | undefined }> {
  const file = encryptedFile(content);
  const url = file?.url ?? content.url;
  if (typeof url !== "string") throw new LiloError("media-download", "the message names no file (no mxc:// URL)");
  const size = (content.info as { size?: unknown } | undefined)?.size;
  if (typeof size === "number" && size > maxBytes) throw new LiloError("media-too-large", `the file has ${size} bytes, more than the ${maxBytes} allowed`);
  const fetched = await ctx.client.downloadContent(url);
  // The server's content type of an encrypted file is that of the ciphertext; the message's info names the real one.
  const { data, contentType } = file ? { data: decryptAttachment(file, fetched.data), contentType: undefined } : fetched;
  if (data.length > maxBytes) throw new LiloError("media-too-large", `the file has ${data.length} bytes, more than the ${maxBytes} allowed`);
  return { data, contentType };
}
