import OpenAI from "openai";
import type { Speaker, SpeechAudio, SpeechRequest } from "../ports/speaker.ts";
import type { SpeechConfig } from "../config/media.ts";
import { openAiAudioClient } from "./openai-audio-client.ts";
import { sdkFailure } from "./sdk-errors.ts";

const PROVIDER = "speech";

/** Hosts that are this machine: a speech server there is the owner's own. */
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * Voice replies through any OpenAI-compatible `/audio/speech` endpoint
 * (OpenAI, or a speech server on the owner's machine), asked for Opus in
 * OGG, the format Telegram and Element play as a voice note.
 */
class OpenAISpeaker implements Speaker {
  readonly provider = PROVIDER;
  readonly model: string;
  readonly local: boolean;
  private readonly client: OpenAI;

  constructor(private readonly settings: SpeechConfig & { baseUrl: string }) {
    this.model = settings.model;
    this.local = LOOPBACK.test(new URL(settings.baseUrl).hostname);
    this.client = openAiAudioClient(settings);
  }

  async speak(request: SpeechRequest): Promise<SpeechAudio> {
    try {
      const response = await this.client.audio.speech.create({
        model: this.settings.model,
        voice: request.voice,
        input: request.text,
        response_format: "opus",
      });
      return { data: new Uint8Array(await response.arrayBuffer()), mediaType: response.headers.get("content-type") ?? "" };
    } catch (err) {
      throw sdkFailure(
        err,
        { provider: PROVIDER, baseUrl: this.client.baseURL, timeoutMs: this.settings.timeoutMs, secrets: [this.settings.apiKey] },
        { abort: OpenAI.APIUserAbortError, timeout: OpenAI.APIConnectionTimeoutError, connection: OpenAI.APIConnectionError, api: OpenAI.APIError },
      );
    }
  }
}

/** The configured speaker, or undefined when LILO_SPEECH_BASE_URL is not set. */
export function createSpeaker(speech: SpeechConfig): Speaker | undefined {
  const { baseUrl } = speech;
  return baseUrl ? new OpenAISpeaker({ ...speech, baseUrl }) : undefined;
}
