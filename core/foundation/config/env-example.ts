import { configGroups, type ConfigVariable } from "./groups.ts";
import type { AnySection } from "./section.ts";

/**
 * `.env.example`, generated from the configuration table (`npm run
 * config:example` or `npm run docs`); test/foundation/config/env-example.test.ts
 * fails when the committed file differs. The groups, their headings and notes
 * come from groups.ts; a section (an adapter's variables, section.ts) brings
 * its own groups, written after the core's.
 */

const HEADER = [
  "# Lilo configuration. Copy to .env and fill in what you use.",
  "# Secrets (API keys, tokens) live only here or in the environment: Lilo never stores or logs them.",
  "# Generated from core/foundation/config/schema.ts and adapters/*/config.ts by `npm run config:example`: change those, not this file.",
];

const WIDTH = 130;
const DOC_COLUMN = 40;

/** The whole `.env.example` text: the core's groups, then those of each section (in the order given). */
export function renderEnvExample(sections: readonly AnySection[] = []): string {
  const out = [...HEADER];
  for (const group of configGroups(sections)) {
    out.push("", heading(group.title), ...comments(group.intro ?? []));
    for (const v of group.variables) out.push(...variable(v));
    out.push(...comments(group.outro ?? []));
  }
  return `${out.join("\n")}\n`;
}

function heading(title: string): string {
  const line = `# ── ${title} `;
  return line.padEnd(Math.max(78, line.length + 2), "─");
}

const comments = (lines: string[]) => lines.map((l) => `# ${l}`);

/** `# VAR=default   (description)`, the description above when the line would be too long. */
function variable(v: ConfigVariable): string[] {
  const line = `# ${v.env}=${v.example ?? v.default}`;
  const doc = [v.doc, v.live ? `live: lilo settings set ${v.live}` : ""].filter(Boolean).join("; ");
  if (!doc) return [line];
  const inline = `${line.padEnd(DOC_COLUMN)} (${doc})`;
  return inline.length <= WIDTH ? [inline] : [...comments(wrap(doc, 100)), line];
}

/** Splits text into lines of at most `width` characters at spaces. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let current = "";
  for (const word of text.split(" ")) {
    if (current && current.length + 1 + word.length > width) {
      lines.push(current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  if (current) lines.push(current);
  return lines;
}
