import type { Lilo } from "../../core/index.ts";
import { SPEECH_TEXTS, type VoiceMode } from "../../core/internal.ts";

/** What `/voice` words mean. */
const MODES: Record<string, VoiceMode> = { on: "always", off: "off", auto: "auto" };

/**
 * `/voice on|off|auto` on every platform: sets the person's voice replies and
 * says what holds now; a bare `/voice` says it without changing it.
 */
export function voiceCommand(lilo: Lilo, userId: string, arg: string): string {
  const t = SPEECH_TEXTS[lilo.config.persona.language];
  if (!lilo.voice.enabled) return t.unavailable;
  const word = arg.trim().toLowerCase();
  const mode = word ? MODES[word] : lilo.voice.mode(userId);
  if (!mode) return t.usage;
  if (word) lilo.voice.setMode(userId, mode);
  return { always: t.on, off: t.off, auto: t.auto }[mode];
}
