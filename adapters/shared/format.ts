/**
 * Turning a model's answer into something a chat client can show, for every
 * transport that speaks a small HTML dialect (Telegram's Bot API HTML, Matrix
 * `org.matrix.custom.html`). Pure functions, no platform imports.
 *
 * Models write Markdown, and not always well-formed Markdown: "2 * 3 < 7 and
 * **unclosed". The renderer therefore never passes a character through
 * unescaped and only emits a tag together with its closing tag, so its output
 * is always balanced HTML; what it does not recognise stays literal text.
 *
 * Long answers are split on the Markdown *source* (at a paragraph, line,
 * sentence or word border) and each part is rendered on its own, so a split
 * can never cut an HTML tag in half.
 *
 * ```ts
 * for (const part of renderChunks(answer, 4096)) send(part.html, part.plain);
 * ```
 */

/** Telegram's limit for one message's text (after entity parsing). */
export const TELEGRAM_TEXT_LIMIT = 4096;

/** One message worth of an answer: rendered HTML and the Markdown source as a plain-text fallback. */
export interface Chunk {
  html: string;
  plain: string;
}

/** Escapes the three characters HTML text must not contain raw (and `"` for attribute values). */
export function escapeHtml(text: string, attribute = false): string {
  const out = text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return attribute ? out.replace(/"/g, "&quot;") : out;
}

/** Splits `text` into parts of at most `max` characters and renders each (see the file comment). */
export function renderChunks(text: string, max = TELEGRAM_TEXT_LIMIT): Chunk[] {
  return splitMarkdown(text, max).map((plain) => ({ html: markdownToHtml(plain), plain }));
}

// ── Markdown → HTML ────────────────────────────────────────────────────────

/** ```lang\ncode``` — the language only counts when a newline follows it. */
const FENCE = /```(?:([\w#+.-]{1,20})?[ \t]*\n)?([\s\S]*?)```/g;
const LINK = /^\[([^[\]\n]+)\]\(([^()\s]+)\)/;
const SAFE_URL = /^(https?:\/\/|mailto:|tg:\/\/)/i;
const MAX_DEPTH = 4;
/** What redaction puts in place of a secret (core/foundation/util/redact.ts): shown as it is, never as emphasis. */
const MASK_RUN = "***";
/** Longest emphasis span searched for; bounds the work on pathological input ("*a *a *a …"). */
const MAX_SPAN = 500;

/**
 * Renders the model's Markdown subset as HTML: **bold**, __bold__, *italic*,
 * _italic_, ~~strike~~, `code`, ``` fenced blocks ```, [links](https://…),
 * `# headings` (bold) and `* ` bullets (•). Everything else is escaped text,
 * also runs of three or more asterisks (the mask of a redacted secret).
 * Emphasis does not span lines, which keeps a stray `*` from swallowing a
 * whole answer.
 */
export function markdownToHtml(markdown: string): string {
  const out: string[] = [];
  let last = 0;
  for (const m of markdown.matchAll(FENCE)) {
    out.push(renderLines(markdown.slice(last, m.index)));
    const code = escapeHtml((m[2] ?? "").replace(/\n$/, ""));
    out.push(m[1] ? `<pre><code class="language-${m[1]}">${code}</code></pre>` : `<pre>${code}</pre>`);
    last = m.index + m[0].length;
  }
  out.push(renderLines(markdown.slice(last)));
  return out.join("");
}

function renderLines(text: string): string {
  return text
    .split("\n")
    .map((line) => {
      // A closing "###" only counts after a space, so "## C#" keeps its "#".
      const heading = /^#{1,6}[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
      if (heading) return `<b>${inline(heading[1]!, 1, true)}</b>`;
      // "* item" would otherwise open an italic span; a bullet reads the same on a phone.
      const bullet = /^([ \t]*)[*-][ \t]+(.*)$/.exec(line);
      if (bullet) return `${bullet[1]}• ${inline(bullet[2]!, 0, true)}`;
      return inline(line, 0, true);
    })
    .join("\n");
}

interface Hit {
  html: string;
  end: number;
}

function inline(s: string, depth: number, links: boolean): string {
  let out = "";
  let i = 0;
  while (i < s.length) {
    const hit = matchAt(s, i, depth, links);
    if (hit) {
      out += hit.html;
      i = hit.end;
    } else {
      out += escapeHtml(s[i]!);
      i++;
    }
  }
  return out;
}

function matchAt(s: string, i: number, depth: number, links: boolean): Hit | undefined {
  const c = s[i];
  if (c === "`") return code(s, i);
  if (depth >= MAX_DEPTH) return undefined;
  // Three or more asterisks are the mask of a redacted secret ("Bearer ***", "sk-***"), never emphasis.
  if (c === "*" && s.startsWith(MASK_RUN, i)) return literal(s.slice(i, i + runLength(s, i)), i);
  if (s.startsWith("**", i)) return wrap(s, i, "**", "b", depth, links) ?? literal("**", i);
  if (s.startsWith("~~", i)) return wrap(s, i, "~~", "s", depth, links) ?? literal("~~", i);
  if (s.startsWith("__", i)) return (wordBoundary(s, i - 1) ? wrap(s, i, "__", "b", depth, links) : undefined) ?? literal("__", i);
  if (c === "*") return wrap(s, i, "*", "i", depth, links);
  if (c === "_" && wordBoundary(s, i - 1)) return wrap(s, i, "_", "i", depth, links);
  if (c === "[" && links) return link(s, i, depth);
  return undefined;
}

/** An unmatched double delimiter is consumed as text, so its second half cannot open a span. */
function literal(delim: string, i: number): Hit {
  return { html: escapeHtml(delim), end: i + delim.length };
}

/** The number of asterisks from position `k` on. */
function runLength(s: string, k: number): number {
  let n = 0;
  while (s[k + n] === "*") n++;
  return n;
}

/** The number of asterisks right before position `k`. */
function runBefore(s: string, k: number): number {
  let n = 0;
  while (k - n > 0 && s[k - n - 1] === "*") n++;
  return n;
}

/** True when position `k` is outside the string or not a letter/digit (snake_case stays literal). */
function wordBoundary(s: string, k: number): boolean {
  return k < 0 || k >= s.length || !/[\p{L}\p{N}]/u.test(s[k]!);
}

function wrap(s: string, i: number, delim: string, tag: string, depth: number, links: boolean): Hit | undefined {
  const start = i + delim.length;
  if (start >= s.length || /\s/.test(s[start]!)) return undefined;
  const underscore = delim[0] === "_";
  for (let j = s.indexOf(delim, start + 1); j !== -1 && j - start <= MAX_SPAN; j = s.indexOf(delim, j + 1)) {
    if (/\s/.test(s[j - 1]!)) continue;
    // A mask cannot close a span either: "x=*** and **y**" stays literal up to the real closer.
    if (delim[0] === "*" && runLength(s, j - runBefore(s, j)) >= MASK_RUN.length) {
      j += runLength(s, j) - 1;
      continue;
    }
    // A single delimiter must not be half of a double one ("*a **b** c*").
    if (delim.length === 1 && (s[j + 1] === delim || s[j - 1] === delim)) continue;
    if (underscore && !wordBoundary(s, j + delim.length)) continue;
    const content = s.slice(start, j);
    return { html: `<${tag}>${inline(content, depth + 1, links)}</${tag}>`, end: j + delim.length };
  }
  return undefined;
}

function code(s: string, i: number): Hit {
  let n = 0;
  while (s[i + n] === "`") n++;
  const fence = "`".repeat(n);
  for (let j = s.indexOf(fence, i + n); j !== -1; j = s.indexOf(fence, j + 1)) {
    if (s[j + n] === "`" || s[j - 1] === "`") continue;
    const content = s.slice(i + n, j);
    if (!content.trim()) break;
    return { html: `<code>${escapeHtml(content.replace(/^ (.*) $/, "$1"))}</code>`, end: j + n };
  }
  return { html: escapeHtml(fence), end: i + n };
}

function link(s: string, i: number, depth: number): Hit | undefined {
  const m = LINK.exec(s.slice(i));
  if (!m || !SAFE_URL.test(m[2]!)) return undefined;
  // No links inside link text: nested <a> is refused by Telegram.
  return { html: `<a href="${escapeHtml(m[2]!, true)}">${inline(m[1]!, depth + 1, false)}</a>`, end: i + m[0].length };
}

// ── Splitting ──────────────────────────────────────────────────────────────

/** A code fence with its optional language, as the splitter counts them. */
const FENCE_MARK = /```([\w#+.-]{0,20})/g;

/** Room kept per part for closing and reopening a code fence cut by a split. */
const FENCE_RESERVE = 32;

/**
 * Splits Markdown into parts of at most `max` characters; a code block cut
 * by a split is closed at the end of one part and reopened in the next.
 */
export function splitMarkdown(text: string, max = TELEGRAM_TEXT_LIMIT): string[] {
  const trimmed = text.trim();
  if (trimmed.length <= max) return trimmed ? [trimmed] : [];
  const parts = splitText(trimmed, Math.max(1, max - FENCE_RESERVE));
  let reopen: string | undefined;
  const fenced = parts.map((p) => {
    let part = reopen !== undefined ? `${reopen}\n${p}` : p;
    const fences = [...part.matchAll(FENCE_MARK)];
    if (fences.length % 2 === 1) {
      part += "\n```";
      // An odd count means the last fence opens a block; reopen it with its language.
      reopen = "```" + (fences.at(-1)![1] ?? "");
    } else {
      reopen = undefined;
    }
    return part;
  });
  // A part holding nothing but fences (a block's closing fence pushed into the next part) would be an
  // empty message, which Telegram refuses; the fences around it are balanced, so it can go.
  return fenced.filter((part) => part.replace(FENCE_MARK, "").trim() !== "");
}

/**
 * Splits plain text into parts of at most `max` characters. Each cut goes at
 * the last paragraph break, else line break, else sentence end in the
 * allowed window (none of them earlier than 30 % of it, so parts stay
 * useful), else the last space; only a single word longer than `max` is cut
 * mid-word. Whitespace at the cut is dropped (not the indentation of the
 * line after it); no other character is lost.
 */
export function splitText(text: string, max = TELEGRAM_TEXT_LIMIT): string[] {
  if (max < 1) throw new RangeError(`max must be at least 1, got ${max}`);
  const parts: string[] = [];
  let rest = text.trim();
  while (rest.length > max) {
    const cut = findCut(rest, max);
    const part = rest.slice(0, cut).trimEnd();
    if (part) parts.push(part);
    // Whitespace up to the line break goes; the next line's indentation (code!) stays.
    rest = rest.slice(cut).replace(/^\s*\n|^\s+/, "");
  }
  if (rest) parts.push(rest);
  return parts;
}

function findCut(rest: string, max: number): number {
  // One character beyond the limit, so a border right at the limit is seen.
  const window = rest.slice(0, max + 1);
  const floor = Math.floor(max * 0.3);
  const paragraph = window.lastIndexOf("\n\n", max);
  if (paragraph >= floor && paragraph > 0) return paragraph;
  const line = window.lastIndexOf("\n", max);
  if (line >= floor && line > 0) return line;
  let sentence = -1;
  for (const m of window.matchAll(/[.!?…][)"'»«“”’]*(?=\s)/g)) {
    const end = m.index + m[0].length;
    if (end <= max) sentence = end;
  }
  if (sentence >= floor && sentence > 0) return sentence;
  for (let k = Math.min(max, window.length - 1); k > 0; k--) {
    if (/\s/.test(window[k]!)) return k;
  }
  // A single word longer than the limit; never split a surrogate pair.
  const code = rest.charCodeAt(max - 1);
  return code >= 0xd800 && code <= 0xdbff && max > 1 ? max - 1 : max;
}
