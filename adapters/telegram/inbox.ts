import type { Api, Middleware, Transformer } from "grammy";
import type { LiloContext } from "./context.ts";
import type { Update } from "grammy/types";
import { describeError, type Lilo, type Logger } from "../../core/index.ts";
import { photoMessageText, voicePlaceholder } from "../shared/media-texts.ts";
import { resumeVoice } from "../shared/media.ts";
import type { TelegramFiles } from "./files.ts";
import { sendText } from "./render.ts";
import { TELEGRAM_TRANSPORT } from "./transport.ts";
import { deliverAnswer } from "./deliver.ts";

/** The id a Telegram message is stored under: unique per chat and message. */
export function telegramMessageId(chatId: number, messageId: number): string {
  return `${chatId}:${messageId}`;
}

/**
 * The durable inbox for long polling. grammY asks for the next batch with
 * `offset` = last update id + 1, which tells Telegram to drop everything
 * before it; this transformer stores each allowed user's message when
 * its batch arrives, before the next getUpdates can confirm it. A crash
 * while the message waits behind a slow turn then loses nothing: the start
 * finishes it (resumeTelegram). Strangers and commands are not stored.
 */
export function durableInbox(lilo: Lilo, allowedUsers: Record<string, string>): Transformer {
  return async (prev, method, payload, signal) => {
    const res = await prev(method, payload, signal);
    if (method !== "getUpdates" || !res.ok) return res;
    // A failure here must not be swallowed: throwing fails this getUpdates, so the offset does not advance.
    for (const update of res.result as Update[]) storeUpdate(lilo, allowedUsers, update);
    return res;
  };
}

/**
 * The same for webhook mode, where the reply to Telegram's request is the
 * acknowledgement: the update is stored before the handler detaches from it.
 */
export function storeOnArrival(lilo: Lilo, allowedUsers: Record<string, string>): Middleware<LiloContext> {
  return (ctx, next) => {
    storeUpdate(lilo, allowedUsers, ctx.update);
    return next();
  };
}

/**
 * Stores an allowed user's text message (not a command), photo (as its
 * caption: a restart answers the caption, the picture itself is not kept) or
 * voice note (as a placeholder with its file id: the turn, or a restart,
 * transcribes it and replaces the text) in a private chat; anything else is
 * left to the handlers. Group messages are never stored, even from an
 * allowed user (see access.ts).
 */
function storeUpdate(lilo: Lilo, allowedUsers: Record<string, string>, update: Update): void {
  const m = update.message;
  const userId = m?.from ? allowedUsers[String(m.from.id)] : undefined;
  const language = lilo.config.persona.language;
  const voice = m?.voice ?? m?.audio;
  const text = m?.text ?? (m?.photo ? photoMessageText(language, m.caption) : voice ? voicePlaceholder(language, voice.file_id) : undefined);
  if (!m || !text || !userId || m.chat.type !== "private" || (m.text?.startsWith("/") ?? false) || !text.trim()) return;
  lilo.inbox.receive({ userId, text, transport: TELEGRAM_TRANSPORT, chatId: String(m.chat.id), externalId: telegramMessageId(m.chat.id, m.message_id) });
}

/**
 * On start, before polling: answers every stored Telegram message whose turn
 * a crash or stop interrupted (in order, once; a voice note is downloaded by
 * its file id and transcribed first), and sends answers that were stored but
 * not delivered. Returns how many messages it finished.
 */
export async function resumeTelegram(lilo: Lilo, api: Api, logger: Logger, files: TelegramFiles): Promise<number> {
  let finished = 0;
  for (const open of lilo.inbox.unfinished(TELEGRAM_TRANSPORT)) {
    if (!open.chatId) continue;
    const chatId = open.chatId;
    try {
      const audio = (fileId: string) =>
        files(fileId, lilo.config.media.maxAudioBytes).then((data) => ({ data, fileName: "voice.ogg", mediaType: "audio/ogg" }));
      if (!(await resumeVoice(lilo, logger, open, audio, (reply) => sendText(api, chatId, reply, logger)))) continue;
      const result = await lilo.inbox.finish(open.message.id);
      if (!result) continue;
      await deliverAnswer(lilo, api, open.chatId, result, logger);
      finished++;
    } catch (err) {
      logger.error("telegram: a stored message could not be finished", { messageId: open.message.id, error: describeError(err) });
    }
  }
  if (finished) logger.info("telegram: finished messages stored before the restart", { count: finished });
  return finished;
}
