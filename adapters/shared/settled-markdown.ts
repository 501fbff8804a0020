/**
 * The part of a Markdown answer still being written that can be shown now.
 * A cut through a span (`**fett`, `` `npm ru ``, `[Seite](https://ex`)
 * renders its delimiters as text, and they would flash on the screen until
 * the closing half arrives; such a span is held back until it is closed.
 * An open code block is shown closed, so its code appears as it is written.
 * Emphasis and links do not span lines (see format.ts), so only the last
 * line can hold an unfinished span. Holding back only delays: the final
 * answer is always rendered whole.
 */
export function settledMarkdown(text: string): string {
  const fences = [...text.matchAll(/```/g)];
  if (fences.length % 2 === 1) {
    const open = fences.at(-1)!.index;
    // The fence's own line (with its language) is not finished: nothing of the block yet.
    if (!text.slice(open).includes("\n")) return text.slice(0, open);
    // A closing fence half-written ("``") is not code.
    const body = text.replace(/\n`{1,2}$/, "\n");
    return `${body}${body.endsWith("\n") ? "" : "\n"}\`\`\``;
  }
  const lineStart = text.lastIndexOf("\n") + 1;
  const cut = openSpanAt(text.slice(lineStart));
  return cut === undefined ? text : text.slice(0, lineStart + cut);
}

/** A link whose text or address runs to the end of the line. */
const HALF_LINK = /^\[[^[\]\n]*(?:\]\(?[^()\s]*)?$/;
/** Three or more asterisks: the mask of a redacted secret, shown as it is. */
const MASK = /^\*{3,}/;

/** Where the first span that opens on `line` and is not closed on it begins; undefined when all are closed. */
function openSpanAt(line: string): number | undefined {
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    const mask = MASK.exec(line.slice(i));
    if (mask) {
      i += mask[0].length;
      continue;
    }
    if (c === "`") {
      const run = /^`+/.exec(line.slice(i))![0];
      // Three or more are a code fence, settled above.
      if (run.length >= 3) {
        i += run.length;
        continue;
      }
      const close = line.indexOf(run, i + run.length);
      if (close === -1) return i;
      i = close + run.length;
      continue;
    }
    if (c === "[") {
      if (HALF_LINK.test(line.slice(i))) return i;
      i++;
      continue;
    }
    const delim = ["**", "~~", "__"].find((d) => line.startsWith(d, i)) ?? (c === "*" || c === "_" ? c : undefined);
    const opens = delim && i + delim.length < line.length && !/\s/.test(line[i + delim.length]!) && (c !== "_" || !isWordChar(line[i - 1]));
    if (delim && opens) {
      const close = line.indexOf(delim, i + delim.length + 1);
      if (close === -1) return i;
      i = close + delim.length;
      continue;
    }
    // A delimiter at the very end may be the start of a span whose first letter has not come yet.
    if (delim && i + delim.length === line.length && (c !== "_" || !isWordChar(line[i - 1]))) return i;
    i += delim?.length ?? 1;
  }
  return undefined;
}

function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && /[\p{L}\p{N}]/u.test(ch);
}
