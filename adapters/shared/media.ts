import { describeError, LiloError, type AudioInput, type Lilo, type Logger } from "../../core/index.ts";
import { MEDIA_TEXTS } from "./media-texts.ts";

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
