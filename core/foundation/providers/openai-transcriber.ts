import OpenAI, { toFile } from "openai";
import type { AudioInput, Transcriber } from "../ports/transcriber.ts";
import type { MediaConfig } from "../config/media.ts";
import { openAiAudioClient } from "./openai-audio-client.ts";
import { sdkFailure } from "./sdk-errors.ts";

const PROVIDER = "transcribe";

/**
 * Voice notes through any OpenAI-compatible `/audio/transcriptions`
 * endpoint (OpenAI, Groq, a local whisper server), with the SDK's retries
 * (LILO_TRANSCRIBE_MAX_RETRIES): a transcription that still fails gets a
 * short reply, the user can speak again.
 */
class OpenAITranscriber implements Transcriber {
  readonly label: string;
  private readonly client: OpenAI;

  constructor(private readonly settings: MediaConfig["transcribe"] & { baseUrl: string }) {
    this.label = `${PROVIDER}:${settings.model}`;
    this.client = openAiAudioClient(settings);
  }

  async transcribe(audio: AudioInput): Promise<string> {
    try {
      const file = await toFile(audio.data, audio.fileName, { type: audio.mediaType });
      const result = await this.client.audio.transcriptions.create({ file, model: this.settings.model, response_format: "json" });
      return result.text.trim();
    } catch (err) {
      throw sdkFailure(
        err,
        { provider: PROVIDER, baseUrl: this.client.baseURL, timeoutMs: this.settings.timeoutMs, secrets: [this.settings.apiKey] },
        { abort: OpenAI.APIUserAbortError, timeout: OpenAI.APIConnectionTimeoutError, connection: OpenAI.APIConnectionError, api: OpenAI.APIError },
      );
    }
  }
}

/** The configured transcriber, or undefined when LILO_TRANSCRIBE_BASE_URL is not set. */
export function createTranscriber(media: MediaConfig): Transcriber | undefined {
  const { baseUrl } = media.transcribe;
  return baseUrl ? new OpenAITranscriber({ ...media.transcribe, baseUrl }) : undefined;
}
