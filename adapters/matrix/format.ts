import { renderChunks } from "../shared/format.ts";

/**
 * Matrix rendering on top of the shared Markdown → HTML renderer
 * (adapters/shared/format.ts: everything escaped, only balanced tags, safe
 * links, split on the Markdown source). Matrix clients collapse newlines in
 * `formatted_body` like any HTML, so line breaks become `<br>` here, except
 * inside code blocks, which keep theirs.
 */

/** One Matrix text message: the plain fallback and its HTML. */
export interface RenderedMessage {
  /** Plain text fallback: the Markdown source of this part. */
  body: string;
  /** Safe HTML for `formatted_body` (`format: "org.matrix.custom.html"`). */
  html: string;
}

/** Matrix refuses events over 65,536 bytes; leave room for the JSON envelope. */
export const MAX_EVENT_BYTES = 60_000;

/** HTML with its newlines as `<br>`, except inside `<pre>` blocks. */
export function matrixLineBreaks(html: string): string {
  return html
    .split(/(<pre>[\s\S]*?<\/pre>\n?)/)
    .map((piece) => (piece.startsWith("<pre>") ? piece.replace(/\n$/, "") : piece.replace(/\n/g, "<br>")))
    .join("");
}

/**
 * The Matrix messages for one answer: split at `maxChars` characters, each
 * with a plain body and HTML. A part whose event would still be too large
 * (HTML escaping can triple the size) is split again.
 */
export function renderMatrix(markdown: string, maxChars: number): RenderedMessage[] {
  return renderChunks(markdown, maxChars).flatMap(({ plain, html }) => {
    const rendered = { body: plain, html: matrixLineBreaks(html) };
    if (Buffer.byteLength(rendered.body) + Buffer.byteLength(rendered.html) > MAX_EVENT_BYTES && plain.length > 100) {
      return renderMatrix(plain, Math.floor(plain.length / 2));
    }
    return [rendered];
  });
}
