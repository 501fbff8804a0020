import type { RawConfig } from "./schema.ts";
import type { ChatModel } from "../ports/chat-model.ts";
import { formatModelSpec } from "./model-spec.ts";
import { ConfigError } from "../errors.ts";

/** Photos, voice notes and other media (the `media` part of LiloConfig). */
export interface MediaConfig {
  /**
   * Chat models that accept images: entries are a provider ("anthropic") or
   * one model ("ollama:llava"). A photo sent to any other model goes as its
   * caption with a note that Lilo cannot see pictures yet.
   */
  vision: string[];
  /** Larger photos are not downloaded (Anthropic takes up to 5 MB per image). */
  maxImageBytes: number;
  /** Larger voice notes are not downloaded (the Bot API serves up to 20 MB). */
  maxAudioBytes: number;
  /** An OpenAI-compatible `/audio/transcriptions` endpoint; without a base URL voice notes get a short reply. */
  transcribe: { baseUrl?: string | undefined; model: string; apiKey?: string | undefined; timeoutMs: number; maxRetries: number };
  /** An OpenAI-compatible `/audio/speech` endpoint for voice replies; without a base URL Lilo answers in text only. */
  speech: SpeechConfig;
  /** When she answers with a voice note: "auto" answers a voice note with one, "always" every answer, "off" never (`/voice` per person). */
  voiceReplies: "auto" | "always" | "off";
}

/** Text to speech (LILO_SPEECH_*). */
export interface SpeechConfig {
  baseUrl?: string | undefined;
  model: string;
  /** The voice of a language not in `voices`. */
  voice: string;
  /** Language → voice (LILO_SPEECH_VOICES). */
  voices: Record<string, string>;
  /** LILO_SPEECH_API_KEY, else the OpenAI key when the endpoint is OpenAI's. */
  apiKey?: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  /** The spoken part of a long answer ends at the last sentence within this many characters. */
  maxChars: number;
  /** The converter for audio that is not OGG/Opus. */
  ffmpeg: string;
}

/** Completes the table's `media` section: LILO_VISION becomes the list of models that see images. */
export function mediaConfig(raw: RawConfig["media"], openAIKey: string | undefined): MediaConfig {
  const { speech } = raw;
  return {
    ...raw,
    speech: {
      ...speech,
      voices: parseVoices(speech.voices),
      apiKey: speech.apiKey ?? (speech.baseUrl && isOpenAIUrl(speech.baseUrl) ? openAIKey : undefined),
    },
    vision: raw.vision
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s && s !== "none"),
  };
}

/** Does this chat model get the images of a message (LILO_VISION lists its provider or provider:model)? */
export function acceptsImages(media: Pick<MediaConfig, "vision">, model: Pick<ChatModel, "provider" | "model">): boolean {
  return media.vision.includes(model.provider) || media.vision.includes(formatModelSpec(model));
}

/** Reads LILO_SPEECH_VOICES ("de=onyx,en=nova"); throws a ConfigError naming an entry that is not language=voice. */
function parseVoices(raw: string): Record<string, string> {
  const voices: Record<string, string> = {};
  for (const entry of raw.split(",").map((e) => e.trim())) {
    if (!entry) continue;
    const [language, voice, extra] = entry.split("=").map((p) => p.trim());
    if (!language || !voice || extra !== undefined) throw new ConfigError(`LILO_SPEECH_VOICES: "${entry}" is not language=voice (e.g. de=onyx,en=nova)`);
    voices[language] = voice;
  }
  return voices;
}

/** Is this OpenAI's own API (whose key the speech endpoint may share)? */
function isOpenAIUrl(url: string): boolean {
  return new URL(url).hostname === "api.openai.com";
}

/** The voice for an answer in `language`. */
export function voiceFor(speech: Pick<SpeechConfig, "voice" | "voices">, language: string): string {
  return speech.voices[language] ?? speech.voice;
}
