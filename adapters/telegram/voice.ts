import { InputFile, type Api } from "grammy";
import { describeError, type Lilo, type Logger } from "../../core/index.ts";
import { sendText, withTyping, type ChatId } from "./render.ts";

/**
 * The voice note beside an answer whose text has gone out already:
 * "recording voice…" while it is made, then `sendVoice` with the OGG/Opus
 * file. The text never waits for it, and nothing here throws: a voice note
 * that cannot be made or sent is logged, the text stands. Returns the sent
 * message's id.
 */
export async function sendVoiceReply(lilo: Lilo, api: Api, chatId: ChatId, userId: string, answer: string, logger: Logger): Promise<number | undefined> {
  const reply = await withTyping(api, chatId, logger, () => lilo.voice.reply(userId, answer), undefined, "record_voice");
  if (reply.kind === "text-only") {
    if (reply.note)
      await sendText(api, chatId, reply.note, logger).catch((err: unknown) =>
        logger.warn("telegram voice note's notice not sent", { error: describeError(err) }),
      );
    return undefined;
  }
  try {
    const duration = reply.durationMs === undefined ? {} : { duration: Math.max(1, Math.round(reply.durationMs / 1000)) };
    const sent = await api.sendVoice(chatId, new InputFile(reply.audio, "voice.ogg"), duration);
    logger.info("telegram voice reply sent", { chatId, chars: reply.spoken.length, bytes: reply.audio.length });
    return sent.message_id;
  } catch (err) {
    logger.warn("telegram refused the voice reply; the text stands", { chatId, error: describeError(err) });
    return undefined;
  }
}
