import type { Bot } from "grammy";
import type { Message, PhotoSize } from "grammy/types";
import { describeError, type ImageInput, type IncomingMessage } from "../../core/index.ts";
import { MEDIA_TEXTS, photoMessageText, voicePlaceholder } from "../shared/media-texts.ts";
import { chatModelSeesImages, transcribeStored } from "../shared/media.ts";
import type { LiloContext, TelegramDeps } from "./context.ts";
import type { TelegramFiles } from "./files.ts";
import { telegramMessageId } from "./inbox.ts";
import { sendText } from "./render.ts";
import { TELEGRAM_TRANSPORT } from "./transport.ts";
import { runTurn } from "./turn.ts";

/** Kinds of message Lilo does not open, as Telegram names their field; the first one present names the reply. */
const OTHER_KINDS = ["document", "video", "video_note", "animation", "location", "venue", "contact", "poll", "dice", "game", "story"] as const;

/**
 * Every message gets an answer (register after the text handler): a photo
 * goes to the model with its caption, a voice note as its transcript; a
 * sticker, a file, a location and the rest get a short reply and are
 * logged; any other update is logged as not handled.
 */
export function registerMedia(bot: Bot<LiloContext>, deps: TelegramDeps, files: TelegramFiles): void {
  const { lilo, logger } = deps;
  const t = MEDIA_TEXTS[lilo.config.persona.language];
  const media = lilo.config.media;
  const incoming = (ctx: LiloContext, text: string): IncomingMessage => ({
    userId: ctx.liloUserId,
    text,
    transport: TELEGRAM_TRANSPORT,
    chatId: String(ctx.chat!.id),
    externalId: telegramMessageId(ctx.chat!.id, ctx.msg!.message_id),
  });
  const say = (ctx: LiloContext, text: string) => sendText(ctx.api, ctx.chat!.id, text, logger);

  bot.on("message:photo", async (ctx) => {
    const message = incoming(ctx, photoMessageText(lilo.config.persona.language, ctx.msg.caption));
    let images: ImageInput[] | undefined;
    const photo = largestFitting(ctx.msg.photo, media.maxImageBytes);
    const sees = chatModelSeesImages(lilo);
    if (sees) {
      try {
        if (!photo) throw new Error("every size of the photo is over LILO_MAX_IMAGE_BYTES");
        // Telegram re-encodes every photo as JPEG.
        images = [{ mediaType: "image/jpeg", data: Buffer.from(await files(photo.file_id, media.maxImageBytes)).toString("base64") }];
      } catch (err) {
        logger.warn("telegram photo not downloaded; answering its caption", { error: describeError(err) });
        await say(ctx, t.photoFailed);
      }
    }
    await runTurn(ctx, deps, (options) => lilo.handleMessage(images ? { ...message, images } : sees ? message : { ...message, unseenImages: true }, options));
  });

  bot.on(["message:voice", "message:audio"], async (ctx) => {
    const voice = ctx.msg.voice ?? ctx.msg.audio!;
    // Stored on arrival as its placeholder (inbox.ts); this finds that row (or stores it, if the update came another way).
    const stored = lilo.inbox.receive(incoming(ctx, voicePlaceholder(lilo.config.persona.language, voice.file_id)));
    const text = await transcribeStored(
      lilo,
      logger,
      stored.messageId,
      async () => ({
        data: await files(voice.file_id, media.maxAudioBytes),
        fileName: ctx.msg.voice ? "voice.ogg" : (ctx.msg.audio?.file_name ?? "audio.mp3"),
        mediaType: voice.mime_type ?? "audio/ogg",
      }),
      (reply) => say(ctx, reply),
    );
    if (text === undefined) return;
    await runTurn(ctx, deps, (options) => lilo.handleMessage(incoming(ctx, text), options), true);
  });

  bot.on("message:sticker", async (ctx) => {
    logger.info("telegram sticker answered with a short reply", { updateId: ctx.update.update_id });
    await say(ctx, t.sticker(ctx.msg.sticker.emoji));
  });

  bot.on("message", async (ctx) => {
    const kind = OTHER_KINDS.find((k) => k in ctx.msg) ?? otherKind(ctx.msg);
    logger.info("telegram message kind not supported; short reply sent", { updateId: ctx.update.update_id, kind });
    await say(ctx, t.unsupported(kind));
  });

  bot.use((ctx) => {
    const kinds = Object.keys(ctx.update).filter((k) => k !== "update_id");
    logger.info("telegram update not handled", { updateId: ctx.update.update_id, kinds });
  });
}

/** The largest size of a photo within the cap (Telegram lists them smallest first); a size without a known length counts as fitting. */
export function largestFitting(sizes: PhotoSize[], maxBytes: number): PhotoSize | undefined {
  return [...sizes].reverse().find((s) => (s.file_size ?? 0) <= maxBytes);
}

/** A name for a message kind this adapter has no entry for (service messages and newer kinds). */
function otherKind(msg: Message): string {
  const skip = new Set([
    "message_id",
    "date",
    "chat",
    "from",
    "sender_chat",
    "message_thread_id",
    "caption",
    "caption_entities",
    "entities",
    "reply_to_message",
    "forward_origin",
    "is_topic_message",
    "has_protected_content",
    "edit_date",
    "author_signature",
    "via_bot",
    "media_group_id",
  ]);
  return Object.keys(msg).find((k) => !skip.has(k)) ?? "unknown";
}
