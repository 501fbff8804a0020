import type { Mood } from "../../core/internal.ts";

/**
 * One emoji per mood, shown as a reaction on the user's message. Both chats
 * use the same ones so Lilo looks alike everywhere; Telegram checks them
 * against its own reaction set (adapters/telegram/reactions.ts). Neutral uses
 * 👌 rather than 😐 because the latter reads as displeasure as a reaction.
 */
export const MOOD_EMOJI = {
  freude: "😁",
  nachdenklich: "🤔",
  neutral: "👌",
  traurig: "😢",
  neugierig: "👀",
  besorgt: "😨",
  verspielt: "🤪",
  liebevoll: "🥰",
} as const satisfies Record<Mood, string>;

/**
 * The reaction on a message the spent budget's cap held back once the person
 * was told today: stored and seen, answered after `/budget` and `/retry`.
 */
export const PAUSED_EMOJI = "😴";
