import { describeError, LiloError, type AudioInput, type Lilo, type Logger } from "../../core/index.ts";
import { MEDIA_TEXTS, voiceRef } from "./media-texts.ts";

/** A voice note's outcome: the transcript to answer, or a short reply instead. */
export type VoiceOutcome = { text: string } | { reply: string };

/**
 * Would the chat model in force see a photo? Then it is worth downloading.
 * Without a usable chat model the turn reports that; the photo is fetched anyway.
 */
export function chatModelSeesImages(lilo: Lilo): boolean {
  try {
    return lilo.models.acceptsImages();
  } catch (err) {
    lilo.logger.debug("no chat model to ask about images", { error: describeError(err) });
    return true;
  }
}

/**
 * Turns a voice note into the message text through the configured
 * transcription endpoint; without one, or when it fails or hears nothing,
 * a short reply in the persona's language. `download` fetches the bytes.
 */
export async function transcribeVoice(lilo: Lilo, logger: Logger, download: () => Promise<AudioInput>): Promise<VoiceOutcome> {
  const t = MEDIA_TEXTS[lilo.config.persona.language];
  const transcriber = lilo.transcriber;
  if (!transcriber) {
    logger.info("voice note without a transcription endpoint (LILO_TRANSCRIBE_BASE_URL)");
    return { reply: t.noTranscriber };
  }
  try {
    const text = await transcriber.transcribe(await download());
    if (!text) return { reply: t.emptyTranscript };
    logger.info("voice note transcribed", { transcriber: transcriber.label, chars: text.length });
    return { text };
  } catch (err) {
    logger.warn("voice note not transcribed", { transcriber: transcriber.label, error: describeError(err) });
    return { reply: err instanceof LiloError && err.code === "media-too-large" ? t.tooLarge : t.transcriptionFailed };
  }
}

/**
 * A voice note stored on arrival as its placeholder (voicePlaceholder): its
 * transcript becomes the stored message's text, and the turn may run
 * (returns the text). Without a transcript the adapter's short reply is said
 * and the message is settled with its plain label, so no turn answers the
 * placeholder — not now, not after a restart (returns undefined).
 */
export async function transcribeStored(
  lilo: Lilo,
  logger: Logger,
  messageId: number,
  download: () => Promise<AudioInput>,
  say: (reply: string) => Promise<unknown>,
): Promise<string | undefined> {
  const outcome = await transcribeVoice(lilo, logger, download);
  if ("text" in outcome) {
    lilo.inbox.complete(messageId, outcome.text);
    return outcome.text;
  }
  await say(outcome.reply);
  // After the reply: a crash in between says it again on the next start rather than never.
  lilo.inbox.complete(messageId, MEDIA_TEXTS[lilo.config.persona.language].voiceNote);
  lilo.inbox.dismiss(messageId);
  return undefined;
}

/**
 * On start, before a stored message is finished: a voice note that a crash
 * caught before its turn is still its placeholder; it is fetched again
 * (`download` with the stored platform reference) and transcribed. True when
 * the message goes on to its turn, false when it was settled with a short reply.
 */
export async function resumeVoice(
  lilo: Lilo,
  logger: Logger,
  open: ReturnType<Lilo["inbox"]["unfinished"]>[number],
  download: (ref: string) => Promise<AudioInput>,
  say: (reply: string) => Promise<unknown>,
): Promise<boolean> {
  const ref = open.replyState === "pending" ? voiceRef(open.message.text) : undefined;
  if (!ref) return true;
  logger.info("a voice note stored before the restart is transcribed again", { messageId: open.message.id });
  return (await transcribeStored(lilo, logger, open.message.id, () => download(ref), say)) !== undefined;
}
