/**
 * The English rules of the statement form (statement-form.ts): "[prep] wh
 * [noun…] aux subject rest" → "subject' verb' rest noun…", a guess asked as
 * the plain fact ("Would Anna likely enjoy jazz?" → "I enjoy jazz"), the
 * speaker's thing as the subject ("What is Anna's favourite book?" → "my
 * favourite book is"), two speakers as "we", the verb agreeing with its new
 * subject ("while she writes" → "while I write").
 */
import type { SpeakerNames } from "./speaker-preference.ts";
import { firstPersonPresent, thirdPersonPresent } from "./english-verbs.ts";
import { asObject, isAnd, mapWords, nameAt, replaceNames, tidy, toOther, type NamedAt } from "./statement-words.ts";
import { foldWord } from "./time-words.ts";

const EN_WH = new Set(["what", "which", "who", "whom", "whose", "where", "when", "why", "how"]);
const EN_HOW = new Set(["many", "much", "long", "often", "far", "old"]);
const EN_PREP = new Set([
  "for",
  "in",
  "at",
  "on",
  "to",
  "with",
  "from",
  "since",
  "about",
  "by",
  "after",
  "before",
  "around",
  "during",
  "until",
  "into",
  "of",
  "towards",
  "toward",
  "between",
  "among",
  "against",
  "without",
  "over",
  "under",
]);
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
/** The same after "we". */
const EN_AUX_WE: Record<string, string> = { is: "are", are: "are", was: "were", were: "were", has: "have", have: "have" };
/** Modals of a guess: "Would Anna likely enjoy jazz?" is answered by "I enjoy jazz" in the chat. */
const EN_GUESS = new Set(["would", "might", "could", "may"]);
const EN_HEDGE = new Set(["likely", "probably", "possibly", "perhaps"]);
const EN_ADVERB = new Set([
  "both",
  "all",
  "each",
  "together",
  "still",
  "also",
  "just",
  "ever",
  "never",
  "first",
  "often",
  "always",
  "once",
  "even",
  "only",
  "really",
]);
/** Words that open a clause or end a verb phrase: what follows a verb, not a noun. */
const EN_CLAUSE = new Set([
  "when",
  "while",
  "after",
  "before",
  "and",
  "or",
  "but",
  "because",
  "if",
  "that",
  "him",
  "her",
  "me",
  "them",
  "us",
  "it",
  "away",
  "up",
  "out",
  "off",
  "down",
  "back",
  "over",
]);
const EN_KIND = /^(?:(?:kind|kinds|type|types|sort|sorts) of )/i;
/** Words that end the noun phrase of a subject before "is"/"has": a preposition, an article, a participle. */
const EN_NP_END = new Set([
  ...EN_PREP,
  "a",
  "an",
  "the",
  "this",
  "that",
  "like",
  "as",
  "than",
  "been",
  "done",
  "gone",
  "seen",
  "taken",
  "given",
  "made",
  "known",
  "grown",
  "shown",
  "written",
  "begun",
  "chosen",
]);

/** English pronouns of a named third person, and of the persona addressed as "you", in the first person. */
const EN_THIRD: Record<string, string> = { her: "my", his: "my", she: "I", he: "I", him: "me", herself: "myself", himself: "myself", hers: "mine" };
/** "you" for the other speaker: "Tim has" → "you have". */
const EN_YOU_VERB: Record<string, string> = { is: "are", was: "were", has: "have", does: "do" };
const EN_THEY: Record<string, string> = { they: "we", them: "us", their: "our", theirs: "ours", themselves: "ourselves" };
const EN_SECOND: Record<string, string> = { you: "I", your: "my", yours: "mine", yourself: "myself", i: "you", me: "you", my: "your", mine: "yours" };

/** Does this (folded) word open an English question? */
export function opensEnglishQuestion(word: string): boolean {
  return EN_WH.has(word) || word in EN_AUX;
}

/**
 * How the verb after the subject is said: plain after do/does/did and a
 * guess, or with the question's own auxiliary. ("did" keeps the plain
 * form: a stored turn tells the event in any tense, and the plain verb is
 * the one form every tense of it shares in meaning.)
 */
type Tense = "plain" | "aux";

/** English: "[prep] wh [noun…] aux subject rest" → "subject' verb' rest noun…". */
export function englishStatement(words: string[], speakers: SpeakerNames): string | undefined {
  const clause = likelyClause(words);
  if (clause) return tidy(clauseStatement(clause, speakers));
  let i = 0;
  if (EN_PREP.has(foldWord(words[0]!)) && words[1] && EN_WH.has(foldWord(words[1]))) i = 1;
  const wh = foldWord(words[i] ?? "");
  let head: string[] = [];
  let rest: string[];
  if (EN_WH.has(wh)) {
    i++;
    if (wh === "how" && words[i] && EN_HOW.has(foldWord(words[i]!))) i += foldWord(words[i + 1] ?? "") === "ago" ? 2 : 1;
    const aux = words.findIndex((w, k) => k >= i && k <= i + 5 && foldWord(w) in EN_AUX);
    // No auxiliary: the question word is the subject ("What motivated Anna?" → "motivated me").
    if (aux < 0) return tidy(asObject(words.slice(i), speakers, "me", "my"));
    head = words.slice(i, aux).join(" ").replace(EN_KIND, "").split(" ").filter(Boolean);
    rest = words.slice(aux);
  } else if (foldWord(words[0]!) in EN_AUX) rest = words;
  else return undefined;
  return inverted(rest, head, speakers);
}

/** "Is it likely that Anna has a dog?" → the words after "that". */
function likelyClause(words: string[]): string[] | undefined {
  const w = words.slice(0, 4).map(foldWord);
  if ((w[0] === "is" || w[0] === "was") && w[1] === "it" && /^(?:likely|possible|probable|true)$/u.test(w[2] ?? "") && w[3] === "that") return words.slice(4);
  return undefined;
}

/** A statement about a speaker as the speaker says it: "Anna has a dog" → "I have a dog". */
function clauseStatement(clause: string[], speakers: SpeakerNames): string[] {
  const named = nameAt(clause, speakers);
  if (!named || isAnd(clause[named.length])) return asObject(clause, speakers, "me", "my");
  const body = firstPersonBody(clause.slice(named.length), speakers, named);
  return named.possessive ? ["my", ...body] : ["I", firstPersonPresent(body[0] ?? ""), ...agree(body.slice(1))];
}

/** Before "is"/"has": does the subject's noun phrase end before word k (a preposition other than "of", an article, a participle, a verb in -ing)? */
function endsNounPhrase(words: string[], k: number): boolean {
  const w = foldWord(words[k]!);
  if (w === "of") return false;
  if (EN_NP_END.has(w) || /ed$/u.test(w)) return true;
  // "is Anna's group performing at" ends it; "was Anna's favourite dancing memory" does not.
  return /ing$/u.test(w) && (k === words.length - 1 || EN_NP_END.has(foldWord(words[k + 1]!)));
}

/** "aux subject rest" (the inversion of a question) as a statement, the question's noun after it. */
function inverted(rest: string[], head: string[], speakers: SpeakerNames): string | undefined {
  const auxWord = foldWord(rest[0]!);
  const tense: Tense = auxWord === "do" || auxWord === "does" || auxWord === "did" || EN_GUESS.has(auxWord) ? "plain" : "aux";
  const after = rest.slice(1);
  const named = nameAt(after, speakers);
  if (named && isAnd(after[named.length])) {
    const pair = twoSpeakers(after, named, speakers);
    if (pair) return tidy([...pair.subject, ...verbPhrase(rest[0]!, tense, mapWords(pair.body, EN_THEY), { be: "are", aux: EN_AUX_WE }), ...head]);
  }
  if (named && named.possessive) return tidy(possessiveSubject(rest[0]!, tense, after, named, speakers, head));
  if (named && !named.possessive && !isAnd(after[named.length])) {
    const body = agree(firstPersonBody(after.slice(named.length), speakers, named));
    const said = verbPhrase(rest[0]!, tense, body, { be: "am", aux: EN_AUX });
    return tidy(["I", ...said, ...head]);
  }
  if (foldWord(after[0] ?? "") === "you") {
    return tidy(["I", ...verbPhrase(rest[0]!, tense, mapWords(after.slice(1), EN_SECOND), { be: "am", aux: EN_AUX }), ...mapWords(head, EN_SECOND)]);
  }
  // Another subject: the question word goes, "do" drops, the speaker becomes "me"/"my".
  const keepAux = auxWord === "do" || auxWord === "does" || auxWord === "did" ? "" : rest[0]!;
  return tidy([...head, keepAux, ...asObject(after, speakers, "me", "my")]);
}

/** The named speaker's words in their own mouth: their "her"/"his" → "my", the other speaker → "you". */
function firstPersonBody(words: string[], speakers: SpeakerNames, named: NamedAt): string[] {
  return mapWords(objectHer(toOther(replaceNames(words, speakers, named.side, "I", "my"), speakers, named.side, "you", "your")), EN_THIRD);
}

/** "her" with no noun after it is the object: "give her" → "give me", "her bag" stays "my bag". */
function objectHer(words: string[]): string[] {
  return words.map((w, k) =>
    foldWord(w) === "her" && (k === words.length - 1 || EN_NP_END.has(foldWord(words[k + 1]!)) || EN_CLAUSE.has(foldWord(words[k + 1]!))) ? "me" : w,
  );
}

/** "while I writes" → "while I write", "you has" → "you have": a verb after an "I" that was "she"/"he", or a "you" that was the other speaker. */
function agree(words: string[]): string[] {
  return words.map((w, k) => {
    if (k > 0 && words[k - 1] === "I") return firstPersonPresent(w);
    if (k > 0 && words[k - 1] === "you") return EN_YOU_VERB[w.toLowerCase()] ?? (w.toLowerCase() === "am" ? w : firstPersonPresent(w));
    return w;
  });
}

/** The verb after the subject: "did … go" → "went", a guess's "would … likely be" → "am", "is" → "am". */
function verbPhrase(aux: string, tense: Tense, body: string[], forms: { be: string; aux: Record<string, string> }): string[] {
  if (tense === "aux") {
    const a = aux.toLowerCase();
    return [forms.aux[a] ?? EN_AUX[a] ?? aux, ...body];
  }
  const plain = withoutHedge(body);
  const v = plain.findIndex((w) => !isAdverb(w)); // "did Anna recently start" → "recently started"
  if (v < 0) return plain;
  const verb = foldWord(plain[v]!);
  const said = verb === "be" ? forms.be : plain[v]!;
  return [...plain.slice(0, v), said, ...plain.slice(v + 1)];
}

/** An adverb before the verb ("recently", "usually", "still"), left in place. */
function isAdverb(word: string): boolean {
  const w = foldWord(word);
  return EN_HEDGE.has(w) || EN_ADVERB.has(w) || /(?:ally|ently|antly|ously|ively|arly|ually)$/u.test(w);
}

/** A guess's hedge goes: "be likely to pursue" → "pursue", "likely have" → "have". */
function withoutHedge(body: string[]): string[] {
  const w = body.slice(0, 3).map(foldWord);
  if (w[0] === "be" && EN_HEDGE.has(w[1] ?? "") && w[2] === "to") return body.slice(3);
  return body.filter((x, k) => !(k < 2 && EN_HEDGE.has(foldWord(x))));
}

/** "Anna and Tom" → "we", "Anna and her kids" → "my kids and I"; undefined for other pairs. */
function twoSpeakers(after: string[], named: NamedAt, speakers: SpeakerNames): { subject: string[]; body: string[] } | undefined {
  const second = after.slice(named.length + 1);
  const other = nameAt(second, speakers);
  if (other && !other.possessive && other.side !== named.side) return { subject: ["we"], body: asObject(second.slice(other.length), speakers, "us", "our") };
  if (/^(?:her|his)$/iu.test(second[0] ?? "") && second[1]) {
    return { subject: ["my", second[1], "and", "I"], body: firstPersonBody(second.slice(2), speakers, named) };
  }
  return undefined;
}

/**
 * "is Anna's favourite book" → "my favourite book is"; "did Anna's son
 * handle the accident" → "my son handled the accident". Before "is"/"has"
 * the noun phrase runs up to a preposition, article or participle; before a
 * verb (did, does, a guess) it is the head noun with its adjectives.
 */
function possessiveSubject(aux: string, tense: Tense, after: string[], named: NamedAt, speakers: SpeakerNames, head: string[]): string[] {
  const words = firstPersonBody(after, speakers, named); // "Anna's" → "my"
  let k = 2;
  if (tense === "aux") {
    while (k < words.length && !endsNounPhrase(words, k)) k++;
    return ["my", ...words.slice(1, k), aux.toLowerCase(), ...words.slice(k), ...head];
  }
  // The verb is the word before what follows a verb (an article, a preposition, an object pronoun), or the last word.
  const guessStop = words.findIndex((w, j) => j > 0 && (foldWord(w) === "be" || EN_HEDGE.has(foldWord(w))));
  const next = words.findIndex((w, j) => j > 2 && (EN_NP_END.has(foldWord(w)) || EN_CLAUSE.has(foldWord(w))));
  k = guessStop > 1 ? guessStop : Math.max(2, (next < 0 ? words.length : next) - 1);
  const body = verbPhrase(aux, tense, words.slice(k), { be: "is", aux: {} });
  // After "does" the verb agrees with the thing: "my dance makes me".
  const agreed = foldWord(aux) === "does" && body[0] ? [thirdPersonPresent(body[0]), ...body.slice(1)] : body;
  return ["my", ...words.slice(1, k), ...agreed, ...head];
}
