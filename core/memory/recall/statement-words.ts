/**
 * Word tools shared by the English and German statement rules
 * (statement-form.ts): finding a speaker's name in a question, putting a
 * pronoun or "I" in its place, and joining the words again.
 */
import type { Role } from "../../foundation/store/chat-log.ts";
import type { SpeakerNames } from "./speaker-preference.ts";
import { foldWord } from "./time-words.ts";

/** A speaker named at the start of some words. */
export interface NamedAt {
  side: Role;
  /** How many words the name takes. */
  length: number;
  /** "Anna's" / "Annas" rather than "Anna". */
  possessive: boolean;
}

/** A speaker's name (all of its words) at the start of `rest`: how many words it takes, and whether it is possessive ("Anna's"). */
export function nameAt(rest: string[], speakers: SpeakerNames): NamedAt | undefined {
  for (const side of ["user", "assistant"] as const) {
    const parts = (speakers[side] ?? "").split(/\s+/u).filter(Boolean).map(foldWord);
    if (!parts.length || rest.length < parts.length) continue;
    const got = rest.slice(0, parts.length).map((w) => foldWord(w.replace(/[,;:]$/u, "")));
    const last = got[got.length - 1]!;
    const possessive = /(?:'s|’s|s)$/u.test(last) && last.replace(/(?:'s|’s|s)$/u, "") === parts[parts.length - 1];
    if (got.slice(0, -1).every((w, i) => w === parts[i]) && (last === parts[parts.length - 1] || possessive))
      return { side, length: parts.length, possessive: last !== parts[parts.length - 1] };
  }
  return undefined;
}

/** Every occurrence of a speaker's name (possessive too) replaced by `self` / `own`. */
export function replaceNames(words: string[], speakers: SpeakerNames, side: Role, self: string, own: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length;) {
    const n = nameAt(words.slice(i), speakers);
    if (n && n.side === side) {
      out.push(n.possessive ? own : self);
      i += n.length;
    } else out.push(words[i++]!);
  }
  return out;
}

/** The other side of a two-party chat is "you" to the named speaker. */
export function toOther(words: string[], speakers: SpeakerNames, side: Role, self: string, own: string): string[] {
  return replaceNames(words, speakers, side === "user" ? "assistant" : "user", self, own);
}

/** Words with either speaker named outside the subject: the name becomes `self`, the possessive `own`. */
export function asObject(words: string[], speakers: SpeakerNames, self: string, own: string): string[] {
  return replaceNames(replaceNames(words, speakers, "user", self, own), speakers, "assistant", self, own);
}

/** "Anna and Tom …": a subject of two, not the speaker alone. */
export function isAnd(word: string | undefined): boolean {
  return word !== undefined && /^(?:and|und|&)$/iu.test(word);
}

/** Each word found in `table` (folded) replaced by its entry. */
export function mapWords(words: string[], table: Record<string, string>): string[] {
  return words.map((w) => {
    const to = table[foldWord(w)];
    return to === undefined ? w : to;
  });
}

/**
 * The words after a leading greeting or clause that ends in a comma or
 * colon, when a question starts after it ("Hey, what did you …",
 * "According to Anna, what …", "Laut Anna: Was …"); the words as they are
 * otherwise.
 */
export function withoutPreamble(words: string[], opensQuestion: (word: string) => boolean): string[] {
  for (let k = 1; k < Math.min(words.length, 9); k++) {
    if (/[,:;]$/u.test(words[k - 1]!) && opensQuestion(foldWord(words[k]!))) return words.slice(k);
  }
  return words;
}

/** The words joined, without a space before punctuation; undefined when nothing is left. */
export function tidy(words: string[]): string | undefined {
  const s = words
    .filter(Boolean)
    .join(" ")
    .replace(/\s+([,;:])/gu, "$1")
    .trim();
  return s ? s : undefined;
}
