/**
 * The German rules of the statement form (statement-form.ts): "wh [Nomen…]
 * Verb Subjekt Rest" → "Subjekt' Verb' [Nomen…] Rest". The question keeps
 * its verb's tense ("Wann fuhr Anna …?" → "Ich fuhr …"); a guess is asked
 * as the plain fact ("Würde Anna wahrscheinlich Jazz mögen?" → "Ich mag
 * Jazz"), the speaker's thing becomes the subject ("Was ist Annas
 * Lieblingsbuch?" → "Mein Lieblingsbuch ist") and two speakers "wir".
 */
import type { SpeakerNames } from "./speaker-preference.ts";
import { asObject, isAnd, mapWords, nameAt, replaceNames, tidy, toOther, type NamedAt } from "./statement-words.ts";
import { foldWord } from "./time-words.ts";

const DE_WH = new Set([
  "was",
  "wer",
  "wen",
  "wem",
  "wessen",
  "wo",
  "wohin",
  "woher",
  "wann",
  "warum",
  "wieso",
  "weshalb",
  "wie",
  "womit",
  "wofur",
  "woruber",
  "woran",
  "worauf",
  "wovon",
  "wozu",
]);
const DE_WELCH = /^welch(?:e|er|es|en|em)$/;
const DE_HOW = new Set(["viele", "viel", "lange", "oft", "weit", "alt"]);
/** German auxiliaries that open a yes/no question (a guess's "würde" and "könnte" too). */
const DE_OPENING = /^(?:hat|hast|ist|bist|war|warst|hatte|hattest|kann|kannst|wird|wirst|wurde|wurden|konnte|konnten|durfte|haben|sind)$/u;
/** Modals of a guess: "Würde Anna …?" is answered by the plain fact. */
const DE_GUESS = new Set(["würde", "würden", "könnte", "könnten", "dürfte", "dürften"]);
const DE_HEDGE = new Set(["wahrscheinlich", "vermutlich", "wohl", "moglicherweise", "eventuell", "vielleicht"]);
/** German finite verbs of the third person and their first-person form (irregular ones; others: -t → -e). */
const DE_VERB: Record<string, string> = {
  hat: "habe",
  ist: "bin",
  war: "war",
  hatte: "hatte",
  wird: "werde",
  wurde: "wurde",
  kann: "kann",
  konnte: "konnte",
  will: "will",
  wollte: "wollte",
  muss: "muss",
  musste: "musste",
  soll: "soll",
  sollte: "sollte",
  darf: "darf",
  mag: "mag",
  mochte: "mochte",
  möchte: "möchte",
  weiß: "weiß",
  liest: "lese",
  isst: "esse",
  sieht: "sehe",
  fährt: "fahre",
  läuft: "laufe",
  gibt: "gebe",
  nimmt: "nehme",
  spricht: "spreche",
  trifft: "treffe",
  hilft: "helfe",
};
/** Infinitives whose first and third person are irregular. */
const DE_INFINITIVE: Record<string, [string, string]> = {
  sein: ["bin", "ist"],
  haben: ["habe", "hat"],
  werden: ["werde", "wird"],
  können: ["kann", "kann"],
  wollen: ["will", "will"],
  mögen: ["mag", "mag"],
  müssen: ["muss", "muss"],
  dürfen: ["darf", "darf"],
  sollen: ["soll", "soll"],
  wissen: ["weiß", "weiß"],
  tun: ["tue", "tut"],
};
const SECOND_PERSON: Record<string, string> = {
  hast: "habe",
  bist: "bin",
  warst: "war",
  hattest: "hatte",
  wirst: "werde",
  kannst: "kann",
  willst: "will",
  musst: "muss",
  sollst: "soll",
  darfst: "darf",
  magst: "mag",
  weißt: "weiß",
};
/** Lower-case words ending in -t that are no verb. */
const DE_NOT_VERB = new Set([
  "nicht",
  "jetzt",
  "oft",
  "erst",
  "meist",
  "bereits",
  "fast",
  "selbst",
  "sonst",
  "zuletzt",
  "bisher",
  "gut",
  "seit",
  "heut",
  "mit",
]);

const DE_SECOND: Record<string, string> = {
  du: "ich",
  dich: "mich",
  dir: "mir",
  dein: "mein",
  deine: "meine",
  deinen: "meinen",
  deinem: "meinem",
  deiner: "meiner",
  deines: "meines",
  ich: "du",
  mich: "dich",
  mir: "dir",
  mein: "dein",
  meine: "deine",
  meinen: "deinen",
  meinem: "deinem",
  meiner: "deiner",
  meines: "deines",
};
const DE_THIRD: Record<string, string> = {
  sie: "ich",
  er: "ich",
  ihn: "mich",
  sich: "mich",
  ihm: "mir",
  sein: "mein",
  seine: "meine",
  seinen: "meinen",
  seinem: "meinem",
  seiner: "meiner",
  seines: "meines",
  ihr: "mein",
  ihre: "meine",
  ihren: "meinen",
  ihrem: "meinem",
  ihrer: "meiner",
  ihres: "meines",
};
const DE_THEY: Record<string, string> = {
  ihre: "unsere",
  ihren: "unseren",
  ihrem: "unserem",
  ihrer: "unserer",
  ihres: "unseres",
  ihr: "unser",
  sie: "wir",
  sich: "uns",
};

/** Does this (folded) word open a German question? */
export function opensGermanQuestion(word: string): boolean {
  return DE_WH.has(word) || DE_WELCH.test(word) || DE_OPENING.test(word);
}

/** German: "wh [Nomen…] Verb Subjekt Rest" → "Subjekt' Verb' [Nomen…] Rest". */
export function germanStatement(words: string[], speakers: SpeakerNames): string | undefined {
  const clause = likelyClause(words);
  if (clause) return tidy(clauseStatement(clause, speakers));
  let i = 0;
  const first = foldWord(words[0]!);
  let head: string[] = [];
  if (DE_WELCH.test(first)) {
    i = 1;
    while (words[i] && /^\p{Ll}/u.test(words[i]!)) i++; // adjectives
    while (words[i] && /^\p{Lu}/u.test(words[i]!) && !nameAt(words.slice(i), speakers)) i++; // the noun(s)
    head = words.slice(1, i);
  } else if (DE_WH.has(first)) {
    i = 1;
    if (first === "wie" && words[1] && DE_HOW.has(foldWord(words[1]))) {
      i = 2;
      while (words[i] && /^\p{Lu}/u.test(words[i]!) && !nameAt(words.slice(i), speakers)) i++;
      head = words.slice(2, i);
    }
  } else if (!DE_OPENING.test(first)) return undefined; // a yes/no question opens with its verb
  const verb = words[i];
  if (!verb) return undefined;
  const after = words.slice(i + 1);
  // "Wer …" is the subject itself: a speaker named after the verb is its object ("Wer hat Anna geholfen?" → "hat mir geholfen").
  if (first === "wer") return tidy([verb, ...asObject(after, speakers, "mir", "mein")]);
  // "Wie fühlte sich Anna …": the reflexive before the subject goes after it.
  const reflexive = foldWord(after[0] ?? "") === "sich" ? nameAt(after.slice(1), speakers) : undefined;
  if (reflexive) after.splice(0, 1 + reflexive.length, ...after.slice(1, 1 + reflexive.length), after[0]!);
  const named = nameAt(after, speakers);
  const guess = DE_GUESS.has(verb.toLowerCase());
  if (named && isAnd(after[named.length])) {
    const pair = twoSpeakers(after, named, speakers);
    if (pair) return tidy([...pair.subject, ...finite(verb, guess, "plural", [...head, ...mapWords(pair.body, DE_THEY)])]);
  }
  if (named && named.possessive) return tidy(possessiveSubject(verb, guess, after, named, speakers, head));
  if (named) return tidy(["Ich", ...finite(verb, guess, "first", [...head, ...agree(firstPersonBody(after.slice(named.length), speakers, named))])]);
  if (foldWord(after[0] ?? "") === "du") return tidy(["Ich", firstPersonFromSecond(verb), ...head, ...mapWords(after.slice(1), DE_SECOND)]);
  // Another subject: the question word goes, the speaker becomes "mich"/"mein".
  return tidy([...head, verb, ...asObject(after, speakers, "mich", "mein")]);
}

/** "Ist es wahrscheinlich, dass Anna einen Hund hat?" → the words after "dass". */
function likelyClause(words: string[]): string[] | undefined {
  const w = words.slice(0, 4).map((x) => foldWord(x.replace(/,$/u, "")));
  if (w[0] === "ist" && w[1] === "es" && /^(?:wahrscheinlich|moglich|denkbar|wahr)$/u.test(w[2] ?? "") && w[3] === "dass") return words.slice(4);
  return undefined;
}

/** A subordinate clause about a speaker as the speaker says it: "Anna einen Hund hat" → "Ich habe einen Hund". */
function clauseStatement(clause: string[], speakers: SpeakerNames): string[] {
  const named = nameAt(clause, speakers);
  if (!named || named.possessive || isAnd(clause[named.length]) || clause.length < named.length + 2) return asObject(clause, speakers, "mich", "mein");
  const body = firstPersonBody(clause.slice(named.length), speakers, named);
  return ["Ich", firstPerson(body[body.length - 1]!), ...body.slice(0, -1)];
}

/** The named speaker's words in their own mouth: "ihr"/"sein" → "mein", the other speaker → "dir"/"dein". */
function firstPersonBody(words: string[], speakers: SpeakerNames, named: NamedAt): string[] {
  const mine = mapWords(objectIhr(toOther(replaceNames(words, speakers, named.side, "ich", "mein"), speakers, named.side, "dir", "dein")), DE_THIRD);
  // A last "sein" is the infinitive ("Was würde Annas Meinung sein?"), not "his".
  return words.length && words[words.length - 1] === "sein" ? [...mine.slice(0, -1), "sein"] : mine;
}

/** "ihr" before no noun (nor adjective) is the object: "hilft ihr" → "hilft mir", "ihr neues Buch" → "mein neues Buch". */
function objectIhr(words: string[]): string[] {
  return words.map((w, k) => {
    const next = words[k + 1];
    if (foldWord(w) !== "ihr") return w;
    const object = !next || /^(?:ein|eine|einen|einem|der|die|das|den|dem|etwas)$/u.test(next) || (/^\p{Ll}/u.test(next) && !/(?:e|es|er|en|em)$/u.test(next));
    return object ? "mir" : w;
  });
}

/** "während ich schreibt" → "während ich schreibe": the verb at the end of a clause whose "sie"/"er" became "ich". */
function agree(words: string[]): string[] {
  const out = [...words];
  for (let k = 0; k < out.length; k++) {
    if (out[k] !== "ich") continue;
    let end = k + 1;
    while (end < out.length - 1 && !/,$/u.test(out[end]!)) end++;
    const last = out[end]?.replace(/,$/u, "");
    if (end > k && last && /^\p{Ll}/u.test(last) && !DE_NOT_VERB.has(last) && !/^ge/u.test(last)) out[end] = out[end]!.replace(last, firstPerson(last));
  }
  return out;
}

/**
 * The finite verb and the rest: a guess ("würde … mögen") drops its modal
 * and hedge and says the infinitive at the end in the person asked.
 */
function finite(verb: string, guess: boolean, person: "first" | "third" | "plural", rest: string[]): string[] {
  if (!guess) return [person === "first" ? firstPerson(verb) : verb, ...rest];
  const plain = rest.filter((w) => !DE_HEDGE.has(foldWord(w)));
  const inf = plain[plain.length - 1];
  if (!inf || !/^\p{Ll}+n$/u.test(inf)) return [verb, ...rest];
  return [person === "plural" ? inf : infinitiveAs(inf, person), ...plain.slice(0, -1)];
}

/** "mögen" → "mag"/"mag", "schreiben" → "schreibe"/"schreibt", "sammeln" → "sammle"/"sammelt", "wandern" → "wandere". */
function infinitiveAs(inf: string, person: "first" | "third"): string {
  const known = DE_INFINITIVE[inf];
  if (known) return person === "first" ? known[0] : known[1];
  if (person === "third") return /[dt]en$/u.test(inf) ? `${inf.slice(0, -1)}t` : inf.replace(/e?n$/u, "t");
  if (inf.endsWith("eln")) return `${inf.slice(0, -3)}le`;
  return inf.endsWith("ern") ? `${inf.slice(0, -1)}e` : inf.replace(/n$/u, "");
}

/** "Anna und Tom" → "wir", "Anna und ihre Kinder" → "meine Kinder und ich"; undefined for other pairs. */
function twoSpeakers(after: string[], named: NamedAt, speakers: SpeakerNames): { subject: string[]; body: string[] } | undefined {
  const second = after.slice(named.length + 1);
  const other = nameAt(second, speakers);
  if (other && !other.possessive && other.side !== named.side)
    return { subject: ["wir"], body: asObject(second.slice(other.length), speakers, "uns", "unser") };
  const mine = DE_THIRD[foldWord(second[0] ?? "")];
  if (mine && mine !== "ich" && second[1] && /^\p{Lu}/u.test(second[1])) {
    return { subject: [mine, second[1], "und", "ich"], body: firstPersonBody(second.slice(2), speakers, named) };
  }
  return undefined;
}

/**
 * "ist Annas Lieblingsbuch" → "mein Lieblingsbuch ist"; "hat Annas Freund
 * ein Kind adoptiert" → "mein Freund hat ein Kind adoptiert": the noun
 * phrase is "mein", its adjectives and the (capitalised) noun.
 */
function possessiveSubject(verb: string, guess: boolean, after: string[], named: NamedAt, speakers: SpeakerNames, head: string[]): string[] {
  const words = firstPersonBody(after, speakers, named);
  let k = 1;
  while (k < words.length && /^\p{Ll}/u.test(words[k]!)) k++;
  if (k >= words.length) return [...head, verb, ...words];
  k++;
  return ["mein", ...words.slice(1, k), ...finite(verb, guess, "third", [...head, ...words.slice(k)])];
}

/** "hat" → "habe", "macht" → "mache": the first person of a third-person finite verb. */
function firstPerson(verb: string): string {
  const known = DE_VERB[verb.toLowerCase()];
  if (known) return known;
  return /[^aeiou]t$/iu.test(verb) ? `${verb.slice(0, -1)}e` : verb;
}

/** "hast" → "habe", "machst" → "mache". */
function firstPersonFromSecond(verb: string): string {
  const v = verb.toLowerCase();
  return SECOND_PERSON[v] ?? (v.endsWith("st") ? `${verb.slice(0, -2)}e` : verb);
}
