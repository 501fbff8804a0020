/**
 * Finds and strips markers (`[NAME: payload]`, docs/spec.md §5) in the model's answer.
 * Pure: executing markers is the caller's job. The seed's bugs this avoids:
 * markers shown raw (malformed, unknown, truncated), only one fetch per answer,
 * and markers executed while Lilo merely explains them (code, quotes).
 */

import type { Marker } from "./marker.ts";
import { nameKey, type MarkerRegistry } from "./marker-registry.ts";

/** The answer without markers, plus the markers in order of appearance (names typed by the registry's). */
export interface ParsedAnswer<N extends string = string> {
  text: string;
  markers: Marker<N>[];
}

/** An unknown name that still "looks like a marker": at least two capitals, no lower case. */
export function isAllCaps(raw: string): boolean {
  return raw === raw.toUpperCase() && /\p{Lu}.*\p{Lu}/u.test(raw);
}

/** Placeholder for a removed marker until the whitespace tidy-up; NUL never occurs in chat text. */
export const GAP = "\u0000";

/** Opening quote → accepted closing quotes ("…", „…“/„…”, “…”, «…», »…«). */
export const QUOTES: Readonly<Record<string, string>> = {
  '"': '"',
  "„": "“”",
  "“": "”",
  "«": "»",
  "»": "«",
};

export const FENCE = /[ \t]*(`{3,}|~{3,})/y;
export const QUOTE_LINE = /[ \t]*>/y;
export const HEAD = /(\[\[?|\()[ \t]*(\p{L}[\p{L}\p{N}_-]*)[ \t]*:/uy;
const TRUNCATED_HEAD = /\[\[?[ \t]*(\p{L}{2,})[ \t]*$/uy;
/** A forgotten colon: "[Emotion froh]". Only canonical names count, so "[Wichtig ist …]" stays prose. */
export const HEAD_NO_COLON = /(\[\[?)[ \t]*(\p{L}+)[ \t]+(?=[^\s\]])/uy;
/** Emphasis around a whole marker ("**[EMOTION: x]**"): removed with it, never left as "****". */
export const EMPHASIS = /(\*{1,3}|_{1,3})$/;
export const BLANK_LINE = /\n[ \t]*\r?\n/;

/** End of a fenced code block opening at `pos`; an unclosed fence runs to the end (as in CommonMark). */
export function fenceEnd(text: string, pos: number): number | undefined {
  FENCE.lastIndex = pos;
  const m = FENCE.exec(text);
  if (!m) return undefined;
  const fence = m[1]!;
  const nl = text.indexOf("\n", pos);
  if (nl < 0) return text.length;
  const close = new RegExp(`^[ \\t]*${fence[0]}{${fence.length},}[ \\t]*\\r?$`, "m").exec(text.slice(nl + 1));
  return close ? nl + 1 + close.index + close[0].length : text.length;
}

/** End of a Markdown quote line (`> ...`) starting at `pos`. */
export function quoteLineEnd(text: string, pos: number): number | undefined {
  QUOTE_LINE.lastIndex = pos;
  if (!QUOTE_LINE.test(text)) return undefined;
  const nl = text.indexOf("\n", pos);
  return nl < 0 ? text.length : nl;
}

/** End of the inline code span at `pos`, or just of the backtick run when it has no partner. */
export function inlineCodeEnd(text: string, pos: number): number {
  let run = pos;
  while (text[run] === "`") run++;
  const len = run - pos;
  for (let i = run; i < text.length;) {
    const j = text.indexOf("`", i);
    if (j < 0 || BLANK_LINE.test(text.slice(i, j))) break; // code spans stay within a paragraph
    let k = j;
    while (text[k] === "`") k++;
    if (k - j === len) return k;
    i = k;
  }
  return run;
}

/** End of a quoted span opening at `pos` and closing on the same line, if any. */
export function quoteEnd(text: string, pos: number, closers: string): number | undefined {
  for (let i = pos + 1; i < text.length && text[i] !== "\n"; i++) {
    if (closers.includes(text[i]!)) return i + 1;
  }
  return undefined;
}

/** Index of the bracket closing a payload: balanced first, else the first closer before a blank line. */
function findClose(text: string, from: number, open: string, close: string): number | undefined {
  let depth = 0;
  let first: number | undefined;
  for (let i = from; i < text.length; i++) {
    if (text[i] === open) depth++;
    else if (text[i] === close) {
      if (depth === 0) return i;
      first ??= i;
      depth--;
    }
  }
  if (first !== undefined && !BLANK_LINE.test(text.slice(from, first))) return first;
  return undefined;
}

/** A marker-like bracket at `pos`: where it ends and, if executable, the marker. */
export function matchMarker<N extends string>(text: string, pos: number, registry: MarkerRegistry<N>): { end: number; marker?: Marker<N> } | undefined {
  HEAD.lastIndex = pos;
  const head = HEAD.exec(text) ?? withoutColon(text, pos, registry);
  if (!head) {
    // The model ran out of tokens mid-name ("… [EMOT"): strip, never show.
    TRUNCATED_HEAD.lastIndex = pos;
    const t = TRUNCATED_HEAD.exec(text);
    const key = t ? nameKey(t[1]!) : "";
    const known = registry.spellings().some((n) => key && n.startsWith(key));
    return known ? { end: text.length } : undefined;
  }
  const [whole, opener, rawName] = head as unknown as [string, string, string];
  const def = registry.resolve(rawName);
  const name = def?.name;
  const round = opener === "(";
  // Round brackets or mixed case are ordinary prose ("(siehe oben: Seite 3)") unless the name is known.
  if (!name && (round || !isAllCaps(rawName))) return undefined;
  const from = pos + whole.length;
  const close = findClose(text, from, round ? "(" : "[", round ? ")" : "]");
  if (close === undefined) {
    // Unclosed: truncated answer, or a forgotten bracket. The payload is incomplete, so strip but don't execute.
    const blank = BLANK_LINE.exec(text.slice(from));
    if (!blank) return { end: text.length };
    return name ? { end: from + blank.index } : undefined;
  }
  let end = close + 1;
  // [[VORSCHLAG: x]] is the one double-bracket marker; accept it with one bracket missing or extra.
  if (!round && text[end] === "]" && (opener === "[[" || def?.doubleBracket)) end++;
  const payload = text.slice(from, close).trim();
  return name && payload ? { end, marker: { name, payload, kind: def!.kind } } : { end };
}

/** The head of "[Emotion froh]" shaped like a regular head, when its name is a canonical marker name. */
export function withoutColon(text: string, pos: number, registry: MarkerRegistry): RegExpExecArray | null {
  HEAD_NO_COLON.lastIndex = pos;
  const m = HEAD_NO_COLON.exec(text);
  return m && registry.isCanonical(m[2]!) ? m : null;
}

const GAP_RUN = new RegExp(`((?:[ \\t]*\\r?\\n)*[ \\t]*)${GAP}((?:[ \\t\\r\\n]*${GAP})*)([ \\t]*(?:\\r?\\n(?:[ \\t]*\\r?\\n)*)?)`, "g");

/**
 * Closes the holes left by removed markers: a marker on its own line takes
 * its line with it, blank-line runs are capped at one, and inline a single
 * space remains (none before punctuation). Text away from markers is untouched.
 */
export function tidy(text: string): string {
  return text.replace(GAP_RUN, (match, left: string, mid: string, right: string, offset: number) => {
    const before = text.slice(0, offset);
    const after = text.slice(offset + match.length);
    if (!before || !after) return "";
    const lines = Math.max(...[left, ...mid.split(GAP), right].map((s) => s.split("\n").length - 1));
    if (lines > 0) return "\n".repeat(Math.min(lines, 2));
    if (!/[ \t]/.test(left + mid + right)) return "";
    if (/^[.,;:!?…)\]}]/.test(after) || /[([{„]$/.test(before)) return "";
    return " ";
  });
}

/**
 * Finds every marker in the model's answer, in order, and returns the text
 * without them. Tolerates case, extra spaces, round brackets, one missing or
 * extra bracket on VORSCHLAG, a forgotten colon after a canonical name
 * ("[Emotion froh]"), emphasis around a marker ("**[EMOTION: x]**") and a
 * few German/English name variants, all as `registry` (the one resolved in
 * the composition root) defines them.
 * Markers inside code (fenced or inline), `>` quote lines or quotation marks
 * on one line are examples, not commands: neither returned nor stripped.
 * Unknown ALL-CAPS markers, empty payloads and truncated markers are stripped
 * but not returned.
 */
export function parseMarkers<N extends string>(answer: string, registry: MarkerRegistry<N>): ParsedAnswer<N> {
  const source = answer.replaceAll(GAP, "");
  const markers: Marker<N>[] = [];
  let out = "";
  let removed = false;
  for (let pos = 0; pos < source.length;) {
    const ch = source[pos]!;
    let end: number | undefined;
    if (pos === 0 || source[pos - 1] === "\n") end = fenceEnd(source, pos) ?? quoteLineEnd(source, pos);
    if (end === undefined && ch === "`") end = inlineCodeEnd(source, pos);
    else if (end === undefined && QUOTES[ch]) end = quoteEnd(source, pos, QUOTES[ch]);
    else if (end === undefined && (ch === "[" || ch === "(")) {
      const found = matchMarker(source, pos, registry);
      if (found) {
        if (found.marker) markers.push(found.marker);
        const emphasis = EMPHASIS.exec(out)?.[1];
        const wrapped = emphasis !== undefined && source.startsWith(emphasis, found.end);
        if (wrapped) out = out.slice(0, -emphasis.length);
        out += GAP;
        removed = true;
        pos = found.end + (wrapped ? emphasis.length : 0);
        continue;
      }
    }
    end ??= pos + 1;
    out += source.slice(pos, end);
    pos = end;
  }
  return { text: (removed ? tidy(out) : out).trim(), markers };
}
