import type { Mood } from "../../core/index.ts";

/**
 * One Matrix reaction (an `m.annotation` key) per mood. Matrix takes any
 * text as a key; these are the emoji Telegram shows too, so both chats look
 * alike, but Matrix is not bound to Telegram's reaction set.
 */
export const MATRIX_MOOD_REACTIONS: Readonly<Record<Mood, string>> = {
  freude: "😁",
  nachdenklich: "🤔",
  neutral: "👌",
  traurig: "😢",
  neugierig: "👀",
  besorgt: "😨",
  verspielt: "🤪",
  liebevoll: "🥰",
};
