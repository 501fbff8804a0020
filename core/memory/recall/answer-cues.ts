/**
 * What kind of answer a question wants, read from its question word, and
 * whether a message holds that kind of thing: a "when" question ("When did
 * Anna go to Rome?", "Wann war Tom beim Arzt?") is answered by a turn that
 * says when ("last Friday", "vor zwei Wochen", "im Mai", "2019") — the
 * question's words match every turn about the topic, the time expression
 * tells the one that dates it. No model call, German and English alike.
 */
import { foldWord } from "./time-words.ts";

/** The kinds of answer a question word asks for: only time, the one kind a few words can tell in any turn. */
export type AnswerKind = "time";

/** Phrases that ask when, folded; matched as whole words at any place of the question. */
const ASKS_WHEN = [
  /\bwhen\b/,
  /\bwhat (year|date|day|month|time|week)\b/,
  /\bwhich (year|date|day|month|week|weekend)\b/,
  /\bhow long ago\b/,
  /\bsince when\b/,
  /\bwann\b/,
  /\b(welchem|welches|welcher|welchen) (jahr|datum|tag|monat|woche|wochenende)\b/,
  /\bwie lange (ist das )?her\b/,
];

/** The kind of answer the question asks for, if its words say so. */
export function askedKind(question: string): AnswerKind | undefined {
  const folded = foldWord(question);
  return ASKS_WHEN.some((p) => p.test(folded)) ? "time" : undefined;
}

/** Words that date something, folded (German and English): days, parts of the calendar, relative words. */
const TIME_WORDS = new Set([
  // English
  "yesterday",
  "today",
  "tonight",
  "tomorrow",
  "ago",
  "last",
  "next",
  "recently",
  "lately",
  "week",
  "weeks",
  "weekend",
  "weekends",
  "month",
  "months",
  "year",
  "years",
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
  "sunday",
  "january",
  "february",
  "march",
  "april",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
  "spring",
  "summer",
  "autumn",
  "fall",
  "winter",
  "christmas",
  "easter",
  "birthday",
  // German
  "gestern",
  "vorgestern",
  "heute",
  "morgen",
  "ubermorgen",
  "letzte",
  "letzten",
  "letzter",
  "letztes",
  "vergangene",
  "vergangenen",
  "nachste",
  "nachsten",
  "neulich",
  "kurzlich",
  "woche",
  "wochen",
  "wochenende",
  "monat",
  "monate",
  "monaten",
  "jahr",
  "jahre",
  "jahren",
  "montag",
  "dienstag",
  "mittwoch",
  "donnerstag",
  "freitag",
  "samstag",
  "sonnabend",
  "sonntag",
  "januar",
  "janner",
  "februar",
  "marz",
  "mai",
  "juni",
  "juli",
  "oktober",
  "dezember",
  "fruhling",
  "fruhjahr",
  "sommer",
  "herbst",
  "weihnachten",
  "ostern",
  "geburtstag",
]);

/** A year (1900–2099) or a written date ("3.5.", "13/10", "2023-10-13"). */
const DATE_PATTERN = /\b(19|20)\d\d\b|\b\d{1,2}[./]\d{1,2}\b/;

/** Does the text say when (a time word, a year or a date)? */
export function datesSomething(text: string): boolean {
  if (DATE_PATTERN.test(text)) return true;
  return (text.normalize("NFC").match(/[\p{L}\p{M}]+/gu) ?? []).some((w) => TIME_WORDS.has(foldWord(w)));
}

/** Does the message hold the kind of thing asked for? */
export function holdsKind(kind: AnswerKind, text: string): boolean {
  switch (kind) {
    case "time":
      return datesSomething(text);
  }
}
