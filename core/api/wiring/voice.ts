/**
 * How Lilo speaks in every part that talks: her persona, and the markers
 * understood everywhere (chat, tools, greeting, diary, reflection).
 */
import type { LiloConfig } from "../../foundation/config/config.ts";
import type { MarkerRegistry } from "../../conversation/markers/marker-registry.ts";
import { MARKERS } from "../../conversation/markers/registry.ts";
import { createPersona, type Persona } from "../../conversation/persona/persona.ts";

/** The persona and the marker registry. */
export interface Voice {
  persona: Persona;
  /** `LiloPorts.markers` or Lilo's own, resolved once. */
  markers: MarkerRegistry;
}

/** The voice from the configuration; `markers` replaces Lilo's own. */
export function voiceOf(config: LiloConfig, markers: MarkerRegistry | undefined): Voice {
  // Resolved once: every part that reads markers is handed this registry, so a marker added through the ports is honoured everywhere.
  return { persona: createPersona(config.persona), markers: markers ?? MARKERS };
}
