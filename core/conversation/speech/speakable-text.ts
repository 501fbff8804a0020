import type { MarkerRegistry } from "../markers/marker-registry.ts";
import { parseMarkers } from "../markers/parse.ts";

/** What of an answer is read out: the words, and whether some of the answer was left to the text. */
export interface SpeakableText {
  text: string;
  /** The answer went on past the spoken part (cut at `maxChars`), or had code or links that are not read out. */
  shortened: boolean;
}

const CODE_BLOCK = /(^|\n)[ \t]*(`{3,}|~{3,})[^\n]*\n[\s\S]*?(\n[ \t]*\2[^\n]*|$)/g;
const LINK = /!?\[([^\]]*)\]\((?:[^()\s]|\([^)]*\))*\)/g;
const BARE_URL = /\b(?:https?:\/\/|www\.)\S+/gi;
const INLINE_CODE = /`([^`\n]+)`/g;
const EMPHASIS = /(\*{1,3}|_{1,3}|~~)(\S(?:[\s\S]*?\S)?)\1/g;
const LINE_PREFIX = /^[ \t]*(?:#{1,6}[ \t]+|>[ \t]?|[-*+][ \t]+|\d+[.)][ \t]+)/gm;
/** A sentence ends at . ! ? or … followed by a space (or a quote and a space). */
const SENTENCE_END = /[.!?…]["»«“”')]*(?=\s)/g;

/**
 * The answer as a person would read it aloud: markers gone (the answer is
 * stored without them, this is the second lock), code blocks and web
 * addresses left to the text, a link read as its words, Markdown signs
 * dropped. Over `maxChars` the spoken part ends at the last sentence end
 * within it (a word end when there is none).
 */
export function speakableText(answer: string, markers: MarkerRegistry, maxChars: number): SpeakableText {
  const visible = parseMarkers(answer, markers).text;
  const withoutCode = visible.replace(CODE_BLOCK, "$1");
  const withoutUrls = withoutCode.replace(LINK, "$1").replace(BARE_URL, "");
  const plain = withoutUrls
    .replace(INLINE_CODE, "$1")
    .replace(EMPHASIS, "$2")
    .replace(LINE_PREFIX, "")
    .replace(/[ \t]+/g, " ")
    .replace(/ +([,.!?;:])/g, "$1")
    .replace(/\s*\n\s*/g, "\n")
    .trim();
  const leftOut = withoutCode !== visible || withoutUrls !== withoutCode;
  if (plain.length <= maxChars) return { text: plain, shortened: leftOut };
  return { text: cut(plain, maxChars), shortened: true };
}

/** The text up to its last sentence end within `maxChars`, else its last word end, else hard at `maxChars`. */
function cut(text: string, maxChars: number): string {
  const window = text.slice(0, maxChars + 1);
  let end = 0;
  for (const m of window.matchAll(SENTENCE_END)) end = m.index + m[0].length;
  if (end > 0) return text.slice(0, end).trim();
  const space = window.lastIndexOf(" ");
  return (space > 0 ? text.slice(0, space) : text.slice(0, maxChars)).trim();
}
