import { z } from "zod";
import { int, opt, positiveInt, setting as s, url } from "./rules.ts";
import { speechSettings } from "./speech-settings.ts";

/* Photos and voice notes. */

/** media: a section of the table in schema.ts. */
export const mediaSettings = z.object({
  vision: s(z.string().default("anthropic,openai,openrouter"), {
    env: "LILO_VISION",
    doc: 'chat models that get photos: providers or provider:model; "none" = caption only',
    group: "media",
  }),
  maxImageBytes: s(positiveInt(5_000_000), { env: "LILO_MAX_IMAGE_BYTES", doc: "larger photos are not downloaded", group: "media" }),
  maxAudioBytes: s(positiveInt(20_000_000), { env: "LILO_MAX_AUDIO_BYTES", doc: "larger voice notes are not downloaded", group: "media" }),
  transcribe: z.object({
    baseUrl: s(url(), {
      env: "LILO_TRANSCRIBE_BASE_URL",
      doc: "voice notes: an OpenAI-compatible /audio/transcriptions endpoint (OpenAI, Groq, local whisper); unset = a short reply instead",
      group: "media",
      example: "https://api.openai.com/v1",
    }),
    model: s(z.string().trim().min(1).default("whisper-1"), {
      env: "LILO_TRANSCRIBE_MODEL",
      doc: "the transcription model the endpoint offers",
      group: "media",
    }),
    apiKey: s(opt(), { env: "LILO_TRANSCRIBE_API_KEY", doc: "the endpoint's key (a local server may need none)", group: "media", secret: true }),
    timeoutMs: s(positiveInt(60_000), { env: "LILO_TRANSCRIBE_TIMEOUT_MS", doc: "per voice note", group: "media" }),
    maxRetries: s(int(2), { env: "LILO_TRANSCRIBE_MAX_RETRIES", doc: "by the SDK, as for model calls", group: "media" }),
  }),
  speech: speechSettings,
  voiceReplies: s(z.enum(["auto", "always", "off"]).default("auto"), {
    env: "LILO_VOICE_REPLIES",
    doc: "with a speech endpoint: auto = a voice note is answered with one, always = every answer, off = never; /voice on|off per person",
    group: "media",
  }),
});
