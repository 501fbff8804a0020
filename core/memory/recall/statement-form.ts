/**
 * A question turned into the statement that would answer it, for the meaning
 * side: stored turns are first-person statements ("I'm off to go swimming
 * with the kids"), the question is a third-person question ("What activities
 * does Melanie partake in?"). Rules only, English and German alike: a
 * leading greeting or clause goes ("Hey, what …", "Laut Anna, was …"), the
 * question word goes, the auxiliary's inversion is undone, the named speaker
 * becomes "I" (their "her"/"his" → "my"), "you" asking the persona becomes
 * its "I". "What activities does Anna partake in?" → "I partake in
 * activities"; "Welche Bücher hat Anna gelesen?" → "Ich habe Bücher
 * gelesen". The rules of each language: statement-form-en.ts, -de.ts.
 */
import type { SpeakerNames } from "./speaker-preference.ts";
import { englishStatement, opensEnglishQuestion } from "./statement-form-en.ts";
import { germanStatement, opensGermanQuestion } from "./statement-form-de.ts";
import { withoutPreamble } from "./statement-words.ts";
import { foldWord } from "./time-words.ts";

/**
 * The statement a question asks for, or undefined when the text is no
 * question these rules know. The question's own first words pick the
 * rules, so a German user asking in English gets the English ones.
 */
export function statementForm(question: string, speakers: SpeakerNames): string | undefined {
  const all = question
    .normalize("NFC")
    .replace(/[?!.]+\s*$/u, "")
    .trim()
    .split(/\s+/u)
    .filter(Boolean);
  const words = withoutPreamble(all, (w) => opensEnglishQuestion(w) || opensGermanQuestion(w));
  if (words.length < 2) return undefined;
  return isGerman(words) ? germanStatement(words, speakers) : englishStatement(words, speakers);
}

/** English "was" opens with its subject ("Was Anna there?"), German "was" with its verb ("Was hat Anna …?"). */
const EN_AFTER_WAS = /^(?:\p{Lu}.*|he|she|it|there|the|a|an|this|that|i|you|my|your|his|her|their|our)$/u;

function isGerman(words: string[]): boolean {
  const first = foldWord(words[0]!);
  if (first === "was") return !EN_AFTER_WAS.test(words[1]!);
  return opensGermanQuestion(first);
}
