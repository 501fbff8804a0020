import type { LiloConfig } from "../foundation/config/config.ts";
import type { Clock } from "../foundation/ports/clock.ts";
import type { Logger } from "../foundation/ports/logger.ts";
import type { ProfileStore } from "../foundation/store/profile.ts";
import { renderProfile } from "../conversation/turn/cheat-sheet.ts";

/**
 * What every background feature (diary, reflection, greeting, analysis)
 * shares besides its own collaborators: the time, the log, Lilo's local time
 * zone, the output budget of one model call and the user's profile as the
 * sheets show it. Built once in createLilo, so no feature needs the whole
 * configuration for these few values.
 */
export interface FeatureContext {
  readonly clock: Clock;
  readonly logger: Logger;
  /** Lilo's time zone: days and times on the sheets are local. */
  readonly timeZone: string;
  /** Output tokens of one model call (`modelCall.maxTokens`). */
  readonly maxTokens: number;
  /** The user's profile, rendered and capped as on the chat sheet. */
  profileText(userId: string): string;
}

/** The feature context from the configuration and the profile store. */
export function featureContext(
  config: Pick<LiloConfig, "timezone" | "modelCall" | "memory">,
  deps: { clock: Clock; logger: Logger; profile: ProfileStore },
): FeatureContext {
  return {
    clock: deps.clock,
    logger: deps.logger,
    timeZone: config.timezone,
    maxTokens: config.modelCall.maxTokens,
    profileText: (userId) => renderProfile(deps.profile.list(userId), config.memory.profileMaxChars),
  };
}
