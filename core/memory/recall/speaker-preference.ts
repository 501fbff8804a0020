/**
 * A question that names one of the two speakers ("What did Anna paint?"
 * when Anna is the user, "Was hat Lilo empfohlen?") asks about what that
 * speaker said: the evidence is in their own turns. The other side's turns
 * that merely address them ("Thanks, Anna!") share the name and the topic
 * but rarely hold the answer. So the other side's messages rank lower — not
 * out: a reply to the named speaker's question can still hold it. Talking to
 * Lilo, a user rarely says their own name: "What did I tell you about …",
 * "Was hast du mir empfohlen?" point at a side just as well (`askedSide`).
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

/** Verbs of telling (English): "did I tell you", "you recommended". */
const EN_SAY = "tell|told|say|said|mention|mentioned|write|wrote|ask|asked|share|shared";
const EN_ADVISE = "recommend|recommended|suggest|suggested|advise|advised|propose|proposed";
/** Participles of telling (German): "habe ich dir erzählt", "hast du empfohlen". */
const DE_SAY = "gesagt|erzählt|erwähnt|geschrieben|gefragt|berichtet";
const DE_ADVISE = "empfohlen|geraten|vorgeschlagen";

/** Who the question says spoke, in the first or second person: "I" is the user, "you" (talking to Lilo) is Lilo. */
const PERSON_SIDES: { side: Role; pattern: RegExp }[] = [
  { side: "user", pattern: new RegExp(`\\b(?:(?:did|have|had|do)\\s+i\\b[^?.!]*\\b(?:${EN_SAY})|i\\s+(?:${EN_SAY})\\b)`, "iu") },
  {
    side: "user",
    pattern: new RegExp(`\\b(?:habe|hab|hatte)\\s+ich\\b[^?.!]*\\b(?:${DE_SAY})\\b|\\bich\\s+(?:habe|hab|hatte)\\b[^?.!]*\\b(?:${DE_SAY})\\b`, "iu"),
  },
  {
    side: "assistant",
    pattern: new RegExp(`\\b(?:(?:did|have|had|do)\\s+you\\b[^?.!]*\\b(?:${EN_SAY}|${EN_ADVISE})|you\\s+(?:${EN_SAY}|${EN_ADVISE})\\b)`, "iu"),
  },
  {
    side: "assistant",
    pattern: new RegExp(
      `\\b(?:hast|hattest)\\s+du\\b[^?.!]*\\b(?:${DE_SAY}|${DE_ADVISE})\\b|\\bdu\\s+(?:hast|hattest)\\b[^?.!]*\\b(?:${DE_SAY}|${DE_ADVISE})\\b`,
      "iu",
    ),
  },
];

/** The side a question asks about in the first or second person, or undefined (neither, or both: "what did you say after I told you"). */
export function personSide(text: string): Role | undefined {
  const sides = new Set(PERSON_SIDES.filter((p) => p.pattern.test(text)).map((p) => p.side));
  return sides.size === 1 ? [...sides][0] : undefined;
}

/** The side a question asks about: a speaker it names, else one it means by "I" or "you". */
export function askedSide(text: string, speakers: SpeakerNames): Role | undefined {
  return namedSide(text, speakers) ?? personSide(text);
}
