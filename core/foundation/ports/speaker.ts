/** What to say, and how. */
export interface SpeechRequest {
  /** Plain words to read out (no markup). */
  text: string;
  /** The answer's language ("de", "en"). */
  language: string;
  /** The voice name the endpoint knows ("nova", a local server's speaker). */
  voice: string;
}

/** Audio as the endpoint sent it. */
export interface SpeechAudio {
  data: Uint8Array;
  /** The Content-Type the endpoint named (a server may send another format than asked). */
  mediaType: string;
}

/** Text to speech (an OpenAI-compatible `/audio/speech` endpoint). Throws ProviderError on failure. */
export interface Speaker {
  /** The ledger's provider ("speech") and model ("tts-1"). */
  readonly provider: string;
  readonly model: string;
  /** The endpoint runs on this machine (a local speech server): its calls cost nothing. */
  readonly local: boolean;
  speak(request: SpeechRequest): Promise<SpeechAudio>;
}
