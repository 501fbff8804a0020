import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");

/** The folders a path into the repository starts with. */
const TOP = ["core/", "adapters/", "jobs/", "admin-cli/", "test/", "docs/"];

/**
 * The repository paths a Markdown text names in inline code: a span that is
 * one path under one of the top folders, naming a file (it has an extension)
 * or a folder (it ends in "/"). Fenced blocks are left out (trees, shell
 * sessions), and so are patterns (`adapters/*\/config.ts`, `<name>`). A line
 * number or an anchor after the path (`core/index.ts:12`, `docs/spec.md#x`)
 * is not part of it.
 */
function namedPaths(markdown: string): string[] {
  const prose = markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
  const paths = new Set<string>();
  for (const [, span] of prose.matchAll(/(?<!`)`([^`\n]+)`(?!`)/g)) {
    const path = span!.trim().replace(/(:\d+(-\d+)?|#[\w-]*)$/, "");
    if (!TOP.some((t) => path.startsWith(t)) || /[\s*<>{}$|,]/.test(path)) continue;
    if (path.endsWith("/") || /\/[^/]*[^./]\.[A-Za-z0-9]+$/.test(path)) paths.add(path);
  }
  return [...paths];
}

/** README.md and every Markdown page under docs/. */
function pages(): string[] {
  const docs = join(ROOT, "docs");
  return [
    "README.md",
    ...readdirSync(docs)
      .filter((f) => f.endsWith(".md") && statSync(join(docs, f)).isFile())
      .map((f) => `docs/${f}`),
  ];
}

describe("docs name real files", () => {
  it("every repository path in backticks in README.md and docs/*.md exists", () => {
    const missing = pages().flatMap((page) =>
      namedPaths(readFileSync(join(ROOT, page), "utf8"))
        .filter((path) => !existsSync(join(ROOT, path)))
        .map((path) => `${page}: ${path}`),
    );
    expect(missing, `these paths named in the docs do not exist:\n${missing.join("\n")}\n`).toEqual([]);
  });

  it("reads a file, a folder, and a file followed by a line number or an anchor", () => {
    const text = "See `core/index.ts`, `test/fakes/`, `admin-cli/program.ts:12` and `docs/spec.md#layout`.";
    expect(namedPaths(text)).toEqual(["core/index.ts", "test/fakes/", "admin-cli/program.ts", "docs/spec.md"]);
  });

  it("leaves out patterns, commands, names without an extension and fenced blocks", () => {
    const text = ["Not `adapters/*/config.ts`, `core/<room>/`, `npm run docs`, `core/index` or `lilo memory`.", "```", "`jobs/in-a-fence.ts`", "```"].join(
      "\n",
    );
    expect(namedPaths(text)).toEqual([]);
  });
});
