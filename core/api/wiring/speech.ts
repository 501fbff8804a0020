/**
 * Lilo's voice replies: the configured (or passed-in) speaker, ffmpeg for
 * audio that is not OGG/Opus, and the usage ledger and budgets they answer to.
 */
import type { Speaker } from "../../foundation/ports/speaker.ts";
import { createSpeaker } from "../../foundation/providers/openai-speaker.ts";
import { ffmpegOpus, type OpusConverter } from "../../foundation/providers/ffmpeg-opus.ts";
import type { MarkerRegistry } from "../../conversation/markers/marker-registry.ts";
import { VoiceReplies } from "../../conversation/speech/voice-replies.ts";
import type { Foundation } from "./foundation.ts";
import type { Stores } from "./stores.ts";
import type { UsageParts } from "./usage.ts";

/** The voice replies of one Lilo. */
export function wireSpeech(
  base: Foundation,
  stores: Pick<Stores, "settings">,
  usage: UsageParts,
  markers: MarkerRegistry,
  ports: { speaker?: Speaker | undefined; opusConverter?: OpusConverter | undefined },
): VoiceReplies {
  const { config, clock, logger } = base;
  const { speech, voiceReplies } = config.media;
  return new VoiceReplies({
    speaker: ports.speaker ?? createSpeaker(speech),
    converter: ports.opusConverter ?? ffmpegOpus(speech.ffmpeg),
    settings: stores.settings,
    ledger: usage.ledger,
    budget: usage.budget,
    prices: () => usage.prices,
    clock,
    timeZone: config.timezone,
    logger,
    markers,
    language: config.persona.language,
    speech,
    mode: voiceReplies,
    recorded: () => usage.recorded(),
  });
}
