import type { LiloConfig } from "../../foundation/config/config.ts";
import { personaPrompt } from "./persona-prompt.ts";

/**
 * Who Lilo is and whom she talks to: her name and language, the name she
 * calls each user by, and the persona text that opens every chat sheet.
 * Features receive this instead of the whole configuration.
 */
export interface Persona {
  readonly name: string;
  readonly language: "de" | "en";
  /** The name Lilo calls a user by; without one (LILO_USER_NAMES) a word for "the person she talks with" in her language, never "User". */
  userName(userId: string): string;
  /** Whether Lilo was told this user's name (LILO_USER_NAMES). */
  isNamed(userId: string): boolean;
  /** The persona part of the chat system prompt for this user. */
  chatPrompt(userId: string): string;
}

/**
 * How Lilo refers to a user whose name she was not told: a phrase that
 * works where a name stands in a prompt ("… chatting with your friend"), so
 * no prompt says "Call User by name" and no memory reads "User likes …".
 */
export const UNNAMED = { de: "dein Gegenüber", en: "your friend" } as const;

/** The persona from its configuration slice. */
export function createPersona(config: LiloConfig["persona"]): Persona {
  const userName = (userId: string) => config.userNames[userId] ?? UNNAMED[config.language];
  return {
    get name() {
      return config.name;
    },
    get language() {
      return config.language;
    },
    userName,
    isNamed: (userId) => config.userNames[userId] !== undefined,
    chatPrompt: (userId) =>
      personaPrompt({ name: config.name, language: config.language, userName: userName(userId), named: config.userNames[userId] !== undefined }),
  };
}
