/**
 * The boundaries block of every prompt that lets Lilo speak on her own
 * (chat sheet, greeting, reflection, diary): the topics the user asked her
 * never to bring up. A block of its own, so it can sit in the stable part
 * of a prompt with the persona and the rules.
 */
export const BOUNDARY_PROMPT = {
  de: {
    head: "Grenzen – diese Themen sprichst du NIE von dir aus an (nur wenn die Person selbst davon anfängt):",
  },
  en: {
    head: "Boundaries – NEVER bring up these topics on your own (only when the person raises them first):",
  },
} as const;

/** The block for a user's boundaries; empty when there are none. */
export function boundariesBlock(language: "de" | "en", boundaries: readonly { text: string }[]): string {
  if (!boundaries.length) return "";
  return [BOUNDARY_PROMPT[language].head, ...boundaries.map((b) => `- ${b.text}`)].join("\n");
}

/** Texts of the boundary question and its outcome. */
export const BOUNDARY_TEXTS = {
  de: {
    ask: (topic: string) => `Soll ich „${topic}“ nicht mehr von mir aus ansprechen? 🚧`,
    saved: (topic: string) => `🚧 Verstanden: „${topic}“ spreche ich nicht mehr von mir aus an.`,
    dropped: "Okay, dann lasse ich es, wie es ist.",
  },
  en: {
    ask: (topic: string) => `Shall I stop bringing up "${topic}" on my own? 🚧`,
    saved: (topic: string) => `🚧 Understood: I won't bring up "${topic}" on my own any more.`,
    dropped: "Okay, I'll leave it as it is.",
  },
} as const;
