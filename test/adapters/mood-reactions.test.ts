import { describe, expect, it } from "vitest";
import type { ReactionTypeEmoji } from "grammy/types";
import { MOODS } from "../../core/conversation/markers/emotion.ts";
import { type Mood } from "../../core/internal.ts";
import { MOOD_REACTIONS } from "../../adapters/telegram/reactions.ts";
import { MATRIX_MOOD_REACTIONS } from "../../adapters/matrix/reactions.ts";

// Compile-time check: every reaction is one Telegram allows (tsc fails otherwise).
const allowed: Record<Mood, ReactionTypeEmoji["emoji"]> = MOOD_REACTIONS;

describe("mood reactions of the adapters", () => {
  it("has one allowed reaction emoji per mood", () => {
    expect(Object.keys(allowed).sort()).toEqual([...MOODS].sort());
    for (const m of MOODS) expect(MOOD_REACTIONS[m]).toMatch(/^\p{Extended_Pictographic}/u);
  });

  it("gives Matrix one reaction per mood too", () => {
    expect(Object.keys(MATRIX_MOOD_REACTIONS).sort()).toEqual([...MOODS].sort());
    for (const m of MOODS) expect(MATRIX_MOOD_REACTIONS[m]).toMatch(/^\p{Extended_Pictographic}/u);
  });
});
