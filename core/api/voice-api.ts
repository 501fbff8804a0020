import type { VoiceMode, VoiceReply } from "../conversation/speech/voice-replies.ts";

export type { VoiceMode, VoiceReply } from "../conversation/speech/voice-replies.ts";

/** Lilo's voice replies (docs/voice.md): the adapters ask whether to speak, and get the voice note to send beside the text. */
export interface VoiceApi {
  /** Is a speech endpoint configured (LILO_SPEECH_BASE_URL)? */
  readonly enabled: boolean;
  /** The person's mode: their `/voice` choice, else LILO_VOICE_REPLIES. */
  mode(userId: string): VoiceMode;
  /** `/voice on|off|auto`: "always", "off" or "auto" for this person. */
  setMode(userId: string, mode: VoiceMode): void;
  /** Should the answer to this message be spoken too? `voiceIn`: the message was a voice note. */
  wants(userId: string, voiceIn: boolean): boolean;
  /**
   * The voice note of an answer (its words without markers, a long answer's
   * first part), OGG/Opus, recorded in the usage ledger; or why the answer
   * stays text only. Never throws: the text has gone out already.
   */
  reply(userId: string, answer: string): Promise<VoiceReply>;
  /** At start: looks for ffmpeg once and says in the log what audio can be sent. */
  check(): Promise<void>;
}
