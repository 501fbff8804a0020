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
  /** The name Lilo calls a user by ("User" when none is configured). */
  userName(userId: string): string;
  /** The persona part of the chat system prompt for this user. */
  chatPrompt(userId: string): string;
}

/** The persona from its configuration slice. */
export function createPersona(config: LiloConfig["persona"]): Persona {
  const userName = (userId: string) => config.userNames[userId] ?? "User";
  return {
    get name() {
      return config.name;
    },
    get language() {
      return config.language;
    },
    userName,
    chatPrompt: (userId) => personaPrompt({ name: config.name, language: config.language, userName: userName(userId) }),
  };
}
