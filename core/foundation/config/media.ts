import type { RawConfig } from "./schema.ts";
import type { ChatModel } from "../ports/chat-model.ts";
import { formatModelSpec } from "./model-spec.ts";

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
}

/** Completes the table's `media` section: LILO_VISION becomes the list of models that see images. */
export function mediaConfig(raw: RawConfig["media"]): MediaConfig {
  return {
    ...raw,
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
