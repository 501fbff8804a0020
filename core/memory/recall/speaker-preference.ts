/**
 * A question that names one of the two speakers ("What did Anna paint?"
 * when Anna is the user, "Was hat Lilo empfohlen?") asks about what that
 * speaker said: the evidence is in their own turns. The other side's turns
 * that merely address them ("Thanks, Anna!") share the name and the topic
 * but rarely hold the answer. So the other side's messages rank lower — not
 * out: a reply to the named speaker's question can still hold it.
 */
import type { Role } from "../../foundation/store/chat-log.ts";
import { foldWord } from "./time-words.ts";

/** The names of the two sides of one user's chat: the user's name (if known) and the persona's. */
export interface SpeakerNames {
  user?: string | undefined;
  assistant?: string | undefined;
}

/** Folded whole words of a text. */
function foldedWords(text: string): Set<string> {
  return new Set((text.normalize("NFC").match(/[\p{L}\p{N}\p{M}]+/gu) ?? []).map(foldWord));
}

/** Every word of a name in the text (whole words, case and accents ignored). */
function names(words: Set<string>, name: string | undefined): boolean {
  const parts = name ? [...foldedWords(name)] : [];
  return parts.length > 0 && parts.every((p) => words.has(p));
}

/**
 * The side the question asks about: the one speaker it names, or undefined
 * when it names neither or both (a question about both sides prefers none).
 * The two names must differ, or a name says nothing about the side.
 */
export function namedSide(text: string, speakers: SpeakerNames): Role | undefined {
  if (speakers.user && speakers.assistant && foldWord(speakers.user) === foldWord(speakers.assistant)) return undefined;
  const words = foldedWords(text);
  const user = names(words, speakers.user);
  const assistant = names(words, speakers.assistant);
  if (user === assistant) return undefined;
  return user ? "user" : "assistant";
}
