import type { ReactionTypeEmoji } from "grammy/types";
import type { Mood } from "../../core/index.ts";

/**
 * One Telegram reaction per mood. Telegram accepts only its own reaction set,
 * so every value is checked against grammY's `ReactionTypeEmoji["emoji"]` at
 * compile time. Neutral uses 👌 rather than 😐 because the latter reads as
 * displeasure when shown as a reaction.
 */
export const MOOD_REACTIONS = {
  freude: "😁",
  nachdenklich: "🤔",
  neutral: "👌",
  traurig: "😢",
  neugierig: "👀",
  besorgt: "😨",
  verspielt: "🤪",
  liebevoll: "🥰",
} as const satisfies Record<Mood, ReactionTypeEmoji["emoji"]>;
