/** A recorded voice note to be written out as text. */
export interface AudioInput {
  data: Uint8Array;
  /** The name the endpoint sees; its extension tells whisper servers the format ("voice.ogg"). */
  fileName: string;
  mediaType: string;
}

/** Speech to text (an OpenAI-compatible `/audio/transcriptions` endpoint). Throws ProviderError on failure. */
export interface Transcriber {
  /** "provider:model"-like label for logs, e.g. "transcribe:whisper-1". */
  readonly label: string;
  transcribe(audio: AudioInput): Promise<string>;
}
