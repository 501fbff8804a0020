/**
 * Questions about two things ("What have Caroline and Melanie both
 * painted?", "Was haben Anna und Tom im Urlaub gemacht?") taken apart
 * without a model call: the named things (names and places written with a
 * capital inside the sentence, German nouns alike; words joined by
 * and/und/or/oder/sowie or a comma) each become a sub-query together with
 * the words they share, so each part is searched on its own and can bring
 * its own evidence to the sheet.
 */
import { foldWord } from "./time-words.ts";
import { STOP_WORDS } from "./keyword-query.ts";
import { FILLER_WORDS } from "../../foundation/util/meaningful-words.ts";

/** At most this many parts: a list of ten names is a search, not two questions. */
export const MAX_PARTS = 4;

/** Words that join two things, German and English. */
const JOINERS = new Set(["and", "or", "und", "oder", "sowie", "&", "versus", "vs"]);

interface Token {
  text: string;
  folded: string;
  /** First word of a sentence: its capital says nothing. */
  sentenceStart: boolean;
  /** Directly after a joiner or a comma. */
  afterJoin: boolean;
}

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let start = true;
  let join = false;
  for (const m of text.normalize("NFC").matchAll(/[\p{L}\p{N}\p{M}'’]+|[.!?:;,&]/gu)) {
    const raw = m[0].replace(/['’]s?$/u, "");
    if (/^[.!?:;]$/.test(raw)) {
      start = true;
      join = false;
      continue;
    }
    if (raw === "," || raw === "&") {
      join = true;
      continue;
    }
    const folded = foldWord(raw);
    if (JOINERS.has(folded)) {
      join = true;
      continue;
    }
    if (raw) out.push({ text: raw, folded, sentenceStart: start, afterJoin: join });
    start = false;
    join = false;
  }
  return out;
}

const meaningful = (t: Token) => t.folded.length >= 2 && !STOP_WORDS.has(t.folded) && !FILLER_WORDS.has(t.folded) && !/^\d+$/.test(t.folded);
const named = (t: Token) => !t.sentenceStart && /^\p{Lu}/u.test(t.text) && meaningful(t);

/** One part of a question: the thing it names and its search text (the thing with the words all parts share). */
export interface QuestionPart {
  thing: string;
  query: string;
}

/**
 * The sub-queries of a question naming two or more things: each thing with
 * the question's other meaningful words; empty when it names fewer than two
 * (then the whole question is the one query). `keep` drops words that are
 * no search words (time words, dates: filters, not things).
 */
export function questionParts(text: string, keep: (word: string) => boolean = () => true): QuestionPart[] {
  const tokens = tokenize(text).filter((t) => keep(t.text));
  const things: string[][] = [];
  let run: string[] = [];
  const close = () => {
    if (run.length) things.push(run);
    run = [];
  };
  tokens.forEach((t, i) => {
    const next = tokens[i + 1];
    // A word joined to another ("pottery and painting") is a thing even in lower case.
    const joined = meaningful(t) && ((t.afterJoin && i > 0 && meaningful(tokens[i - 1]!)) || (next?.afterJoin === true && meaningful(next)));
    if (named(t) || joined) {
      if (t.afterJoin) close();
      run.push(t.text);
      if (!named(t)) close();
    } else close();
  });
  close();
  const distinct = [...new Map(things.map((t) => [t.map(foldWord).join(" "), t.join(" ")])).values()];
  if (distinct.length < 2 || distinct.length > MAX_PARTS) return [];
  const inThings = new Set(things.flat().map(foldWord));
  const shared = tokens.filter((t) => meaningful(t) && !inThings.has(t.folded)).map((t) => t.text);
  return distinct.map((thing) => ({ thing, query: [thing, ...shared].join(" ") }));
}
