import { z } from "zod";
import { int, opt, positiveInt, setting as s, url } from "./rules.ts";

/* Lilo's voice: text to speech for voice replies (docs/voice.md). */

/** media.speech: part of the media section of the table in schema.ts. */
export const speechSettings = z.object({
  baseUrl: s(url(), {
    env: "LILO_SPEECH_BASE_URL",
    doc: "voice replies: an OpenAI-compatible /audio/speech endpoint (OpenAI, a local speech server); unset = text only",
    group: "media",
    example: "https://api.openai.com/v1",
  }),
  model: s(z.string().trim().min(1).default("tts-1"), { env: "LILO_SPEECH_MODEL", doc: "the speech model the endpoint offers", group: "media" }),
  voice: s(z.string().trim().min(1).default("nova"), { env: "LILO_SPEECH_VOICE", doc: "the voice she speaks with", group: "media" }),
  voices: s(z.string().default(""), {
    env: "LILO_SPEECH_VOICES",
    doc: "a voice per language, e.g. de=onyx,en=nova; a language not listed speaks with LILO_SPEECH_VOICE",
    group: "media",
  }),
  apiKey: s(opt(), {
    env: "LILO_SPEECH_API_KEY",
    doc: "the endpoint's key; unset = OPENAI_API_KEY when the endpoint is OpenAI's (a local server may need none)",
    group: "media",
    secret: true,
  }),
  timeoutMs: s(positiveInt(20_000), { env: "LILO_SPEECH_TIMEOUT_MS", doc: "per voice reply; the text never waits for it", group: "media" }),
  maxRetries: s(int(1), { env: "LILO_SPEECH_MAX_RETRIES", doc: "by the SDK, as for model calls", group: "media" }),
  maxChars: s(positiveInt(1_000), {
    env: "LILO_SPEECH_MAX_CHARS",
    doc: "a longer answer is spoken up to the last sentence within this length; the whole answer is always there as text",
    group: "media",
  }),
  ffmpeg: s(z.string().trim().min(1).default("ffmpeg"), {
    env: "LILO_FFMPEG",
    doc: "converts audio that is not OGG/Opus (a server that ignores response_format); not found = such audio is not sent",
    group: "media",
  }),
});
