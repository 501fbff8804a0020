/**
 * A question turned into the statement that would answer it, for the meaning
 * side: stored turns are first-person statements ("I'm off to go swimming
 * with the kids"), the question is a third-person question ("What activities
 * does Melanie partake in?"). Rules only, English and German alike: the
 * question word goes, the auxiliary's inversion is undone, the named speaker
 * becomes "I" (their "her"/"his" → "my"), "you" asking the persona becomes
 * its "I". "What activities does Melanie partake in?" → "I partake in
 * activities"; "Welche Bücher hat Anna gelesen?" → "Ich habe Bücher gelesen".
 */
import type { Role } from "../../foundation/store/chat-log.ts";
import type { SpeakerNames } from "./speaker-preference.ts";
import { foldWord } from "./time-words.ts";

const EN_WH = new Set(["what", "which", "who", "whom", "whose", "where", "when", "why", "how"]);
const EN_HOW = new Set(["many", "much", "long", "often", "far", "old"]);
const EN_PREP = new Set(["for", "in", "at", "on", "to", "with", "from", "since", "about", "by"]);
/** English auxiliaries and what they become after "I". */
const EN_AUX: Record<string, string> = {
  do: "",
  does: "",
  did: "",
  is: "am",
  are: "am",
  was: "was",
  were: "was",
  has: "have",
  have: "have",
  had: "had",
  can: "can",
  could: "could",
  will: "will",
  would: "would",
  should: "should",
  might: "might",
  may: "may",
};
const EN_KIND = /^(?:(?:kind|kinds|type|types|sort|sorts) of )/i;

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

/** English pronouns of a named third person, and of the persona addressed as "you", in the first person. */
const EN_THIRD: Record<string, string> = { her: "my", his: "my", she: "I", he: "I", herself: "myself", himself: "myself", hers: "mine" };
const EN_SECOND: Record<string, string> = { you: "I", your: "my", yours: "mine", yourself: "myself", i: "you", me: "you", my: "your", mine: "yours" };
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

/**
 * The statement a question asks for, or undefined when the text is no
 * question these rules know. The question's own first words pick the
 * rules, so a German user asking in English gets the English ones.
 */
export function statementForm(question: string, speakers: SpeakerNames): string | undefined {
  const words = question
    .normalize("NFC")
    .replace(/[?!.]+\s*$/u, "")
    .trim()
    .split(/\s+/u)
    .filter(Boolean);
  if (words.length < 2) return undefined;
  return isGerman(words) ? german(words, speakers) : english(words, speakers);
}

/** German auxiliaries that open a yes/no question. */
const DE_OPENING = /^(?:hat|hast|ist|bist|war|warst|hatte|hattest|kann|kannst|wird|wirst)$/u;

/** English "was" opens with its subject ("Was Anna there?"), German "was" with its verb ("Was hat Anna …?"). */
const EN_AFTER_WAS = /^(?:\p{Lu}.*|he|she|it|there|the|a|an|this|that|i|you|my|your|his|her|their|our)$/u;

function isGerman(words: string[]): boolean {
  const first = foldWord(words[0]!);
  if (first === "was") return !EN_AFTER_WAS.test(words[1]!);
  return DE_WH.has(first) || DE_WELCH.test(first) || DE_OPENING.test(first);
}

/** A speaker's name (all of its words) at the start of `rest`: how many words it takes, and whether it is possessive ("Anna's"). */
function nameAt(rest: string[], speakers: SpeakerNames): { side: Role; length: number; possessive: boolean } | undefined {
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
function replaceNames(words: string[], speakers: SpeakerNames, side: Role, self: string, own: string): string[] {
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
function toOther(words: string[], speakers: SpeakerNames, side: Role, self: string, own: string): string[] {
  return replaceNames(words, speakers, side === "user" ? "assistant" : "user", self, own);
}

/** "Anna and Tom …": a subject of two, not the speaker alone. */
function isAnd(word: string | undefined): boolean {
  return word !== undefined && /^(?:and|und|&)$/iu.test(word);
}

function mapWords(words: string[], table: Record<string, string>): string[] {
  return words.map((w) => {
    const to = table[foldWord(w)];
    return to === undefined ? w : to;
  });
}

/** English: "[prep] wh [noun…] aux subject rest" → "subject' aux' rest noun…". */
function english(words: string[], speakers: SpeakerNames): string | undefined {
  let i = 0;
  if (EN_PREP.has(foldWord(words[0]!)) && words[1] && EN_WH.has(foldWord(words[1]))) i = 1;
  const wh = foldWord(words[i] ?? "");
  let head: string[] = [];
  let rest: string[];
  if (EN_WH.has(wh)) {
    i++;
    if (wh === "how" && words[i] && EN_HOW.has(foldWord(words[i]!))) i++;
    const aux = words.findIndex((w, k) => k >= i && k <= i + 5 && foldWord(w) in EN_AUX);
    // No auxiliary: the question word is the subject ("What motivated Anna?" → "motivated me").
    if (aux < 0) return tidy(asObject(words.slice(i), speakers, "me", "my"));
    head = words.slice(i, aux).join(" ").replace(EN_KIND, "").split(" ").filter(Boolean);
    rest = words.slice(aux);
  } else if (foldWord(words[0]!) in EN_AUX) rest = words;
  else return undefined;
  const aux = EN_AUX[foldWord(rest[0]!)]!;
  const after = rest.slice(1);
  const named = nameAt(after, speakers);
  if (named && !named.possessive && !isAnd(after[named.length])) {
    const body = mapWords(toOther(replaceNames(after.slice(named.length), speakers, named.side, "I", "my"), speakers, named.side, "you", "your"), EN_THIRD);
    return tidy(["I", aux, ...body, ...head]);
  }
  if (foldWord(after[0] ?? "") === "you") return tidy(["I", aux, ...mapWords(after.slice(1), EN_SECOND), ...mapWords(head, EN_SECOND)]);
  // Another subject (or the speaker's thing: "Anna's grandma"): the question word goes, "do" drops, the speaker becomes "me"/"my".
  const verb = foldWord(rest[0]!);
  const keepAux = verb === "do" || verb === "does" || verb === "did" ? "" : rest[0]!;
  return tidy([...head, keepAux, ...asObject(after, speakers, "me", "my")]);
}

/** Words with either speaker named outside the subject: the name becomes `self`, the possessive `own`. */
function asObject(words: string[], speakers: SpeakerNames, self: string, own: string): string[] {
  return replaceNames(replaceNames(words, speakers, "user", self, own), speakers, "assistant", self, own);
}

/** German: "wh [Nomen…] Verb Subjekt Rest" → "Subjekt' Verb' [Nomen…] Rest". */
function german(words: string[], speakers: SpeakerNames): string | undefined {
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
  const named = nameAt(after, speakers);
  if (named && !named.possessive && !isAnd(after[named.length])) {
    const body = mapWords(toOther(replaceNames(after.slice(named.length), speakers, named.side, "ich", "mein"), speakers, named.side, "dir", "dein"), DE_THIRD);
    return tidy(["Ich", firstPerson(verb), ...head, ...body]);
  }
  if (foldWord(after[0] ?? "") === "du") return tidy(["Ich", firstPersonFromSecond(verb), ...head, ...mapWords(after.slice(1), DE_SECOND)]);
  // Another subject (or the speaker's thing: "Annas Bruder"): the question word goes, the speaker becomes "mich"/"mein".
  return tidy([...head, verb, ...asObject(after, speakers, "mich", "mein")]);
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
  const irregular: Record<string, string> = {
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
  return irregular[v] ?? (v.endsWith("st") ? `${verb.slice(0, -2)}e` : verb);
}

function tidy(words: string[]): string | undefined {
  const s = words
    .filter(Boolean)
    .join(" ")
    .replace(/\s+([,;:])/gu, "$1")
    .trim();
  return s ? s : undefined;
}
