import type { Mood } from "../../core/internal.ts";
import { MOOD_EMOJI } from "../shared/mood-emoji.ts";

/** One Matrix reaction (an `m.annotation` key) per mood; Matrix takes any text as a key. */
export const MATRIX_MOOD_REACTIONS: Readonly<Record<Mood, string>> = MOOD_EMOJI;
