/**
 * The few pieces of Markdown the generated pages are written with. The pages
 * are read on GitHub and in an editor alike, so the output stays plain: pipe
 * tables, inline code, headings.
 */

/** Text made safe for one table cell: a pipe would end the cell, a line break the row. */
export function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|");
}

/**
 * Plain text from the code (a description, a note) made safe as Markdown:
 * outside its inline code, a `<` would open an HTML tag ("telegram:<id>"
 * would lose its "<id>"), so it is escaped.
 */
export function prose(text: string): string {
  return text
    .split(/(`+[^`]*`+)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/</g, "\\<")))
    .join("");
}

/** `text` as inline code; a backtick inside is fenced with two, as Markdown asks. */
export function code(text: string): string {
  if (!text.includes("`")) return `\`${text}\``;
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `\`\`${pad}${text}${pad}\`\``;
}

/** A pipe table: the header row, the divider, one line per row (cells escaped here). */
export function table(header: readonly string[], body: readonly (readonly string[])[]): string[] {
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...body.map(line)];
}

/**
 * The anchor GitHub gives a heading: lower case, punctuation dropped, spaces
 * as hyphens; a title used twice gets "-1", "-2", … (`seen` counts them).
 */
export function anchor(title: string, seen: Map<string, number> = new Map()): string {
  const base = title
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
    .replace(/ /g, "-");
  const n = seen.get(base) ?? 0;
  seen.set(base, n + 1);
  return n === 0 ? base : `${base}-${n}`;
}
