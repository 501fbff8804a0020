import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * SQL lives in core/foundation/store only: every other module talks to the
 * database through a store. This scans the sources outside core/foundation/store for SQL
 * shapes — not English words: "select" or "update" in a sentence is fine.
 */
const ROOT = join(import.meta.dirname, "..", "..");
const SCANNED_DIRS = ["core", "adapters", "jobs", "admin-cli"];
const STORE_DIR = "core/foundation/store/";

const SQL_SHAPES: RegExp[] = [
  /\bSELECT\s[^;]{0,400}?\bFROM\s/,
  /\bINSERT\s+(OR\s+\w+\s+)?INTO\b/,
  /\bUPDATE\s+[\w"`$.{}]+\s+SET\b/,
  /\bDELETE\s+FROM\b/,
  /\b(CREATE|DROP|ALTER)\s+(VIRTUAL\s+|UNIQUE\s+|TEMP\s+)?(TABLE|INDEX|TRIGGER|VIEW)\b/,
  /\bPRAGMA\s+\w+/,
  /\.(prepare|pragma)\(/,
  /\.exec\(\s*["'`]\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|VACUUM|ATTACH)\b/,
];

/** Source without comments (a comment may name SQL); line breaks kept so line numbers stay right. */
function withoutComments(source: string): string {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, " "))
    .split("\n")
    .map((line) => (/^\s*\/\//.test(line) ? "" : line))
    .join("\n");
}

/** Each SQL shape found in the source, with its line number. */
function findSql(source: string): { line: number; text: string }[] {
  const code = withoutComments(source);
  const hits: { line: number; text: string }[] = [];
  for (const shape of SQL_SHAPES) {
    const global = new RegExp(shape.source, "g");
    for (const m of code.matchAll(global)) {
      hits.push({ line: code.slice(0, m.index).split("\n").length, text: m[0].replace(/\s+/g, " ").slice(0, 60) });
    }
  }
  return hits.sort((a, b) => a.line - b.line);
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "node_modules" ? [] : tsFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

const sources = (): string[] =>
  [
    ...SCANNED_DIRS.flatMap((d) => tsFiles(join(ROOT, d))),
    ...readdirSync(ROOT)
      .filter((n) => n.endsWith(".ts"))
      .map((n) => join(ROOT, n)),
  ]
    .map((p) => relative(ROOT, p).split("\\").join("/"))
    .filter((p) => !p.startsWith(STORE_DIR));

describe("no SQL outside core/foundation/store", () => {
  it("finds SQL in no source file outside core/foundation/store", () => {
    const offenders = sources().flatMap((p) => findSql(readFileSync(join(ROOT, p), "utf8")).map((h) => `${p}:${h.line}: ${h.text}`));
    expect(offenders, `SQL outside core/foundation/store — move it into a store module:\n${offenders.join("\n")}`).toEqual([]);
  });

  it("recognises SQL in the stores (the scanner works)", () => {
    const store = tsFiles(join(ROOT, "core/foundation/store")).filter((p) => findSql(readFileSync(p, "utf8")).length > 0);
    expect(store.length).toBeGreaterThan(10);
  });

  it("matches SQL shapes, not English words or RegExp exec", () => {
    const sql = [
      "db.prepare(`SELECT id FROM notes WHERE user_id = ?`)",
      "`SELECT s.id AS rowId, -bm25(x) AS score\n FROM notes_fts`",
      '"INSERT OR REPLACE INTO meta (id) VALUES (1)"',
      "`UPDATE ${TABLE} SET pruned_through = 1`",
      "'DELETE FROM feeds WHERE id = ?'",
      "`CREATE VIRTUAL TABLE IF NOT EXISTS vec USING vec0()`",
      'db.exec("BEGIN IMMEDIATE")',
      'db.pragma("user_version")',
    ];
    for (const s of sql) expect(findSql(s), s).not.toEqual([]);
    const prose = [
      '"Please select a note from the list"',
      '"update the settings: set LILO_MODEL"',
      '"delete from your memory"',
      "const m = FENCE.exec(text);",
      "/^(\\d{1,2}):(\\d{2})$/.exec(raw.trim())",
      "// SELECT id FROM notes in a comment",
      "/** Reads the chat log with SELECT ... FROM, only. */",
      '"Select one. From then on"',
    ];
    for (const s of prose) expect(findSql(s), s).toEqual([]);
  });
});
