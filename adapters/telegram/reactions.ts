import type { ReactionTypeEmoji } from "grammy/types";
import type { Mood } from "../../core/internal.ts";
import { MOOD_EMOJI, PAUSED_EMOJI } from "../shared/mood-emoji.ts";

/**
 * One Telegram reaction per mood. Telegram accepts only its own reaction set,
 * so every value is checked against grammY's `ReactionTypeEmoji["emoji"]` at
 * compile time.
 */
export const MOOD_REACTIONS = MOOD_EMOJI satisfies Record<Mood, ReactionTypeEmoji["emoji"]>;

/** The reaction on a message held back by the budget's cap, checked the same way. */
export const PAUSED_REACTION = PAUSED_EMOJI satisfies ReactionTypeEmoji["emoji"];
