/**
 * Reads the unicode61 tokenizer's tables out of the SQLite amalgamation that
 * better-sqlite3-multiple-ciphers builds (node_modules/better-sqlite3-multiple-ciphers/deps/sqlite3/sqlite3.c),
 * and renders them as core/memory/recall/keyword-index/unicode61-tables.ts:
 * the chat log's keyword index must cut and fold words exactly as FTS5 does.
 * A test compares the committed file with this rendering, so an SQLite
 * upgrade that changes a table fails loudly. Regenerate with
 * `npx tsx test/helpers/unicode61-source.ts --write` (then prettier).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const SQLITE_C = `${ROOT}node_modules/better-sqlite3-multiple-ciphers/deps/sqlite3/sqlite3.c`;
export const TABLES_TS = `${ROOT}core/memory/recall/keyword-index/unicode61-tables.ts`;

/** The numbers of the C array `name` (`… name[] = { … };`); characters like 'a'|HIBIT are evaluated. */
export function cArray(src: string, name: string): number[] {
  const m = new RegExp(`\\b${name}\\[\\]\\s*=\\s*\\{([\\s\\S]*?)\\};`).exec(src);
  if (!m) throw new Error(`${name} not found in sqlite3.c`);
  return m[1]!
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const ch = /^'(\\0|.)'(\|HIBIT)?$/.exec(s);
      if (ch) return (ch[1] === "\\0" ? 0 : ch[1]!.charCodeAt(0)) | (ch[2] ? 0x80 : 0);
      const n = Number(s);
      if (!Number.isInteger(n)) throw new Error(`${name}: cannot read ${s}`);
      return n;
    });
}

/** The fold table's entries `{iCode, flags, nRange}` flattened. */
export function foldEntries(src: string): number[] {
  const m = /nRange;\s*\} aEntry\[\]\s*=\s*\{([\s\S]*?)\};/.exec(src);
  if (!m) throw new Error("aEntry not found in sqlite3.c");
  return [...m[1]!.matchAll(/\{(\d+),\s*(\d+),\s*(\d+)\}/g)].flatMap((e) => [Number(e[1]), Number(e[2]), Number(e[3])]);
}

/** The two masks of sqlite3Fts5UnicodeIsdiacritic. */
export function diacriticMasks(src: string): number[] {
  const m = /mask0 = (0x[0-9A-F]+);\s*unsigned int mask1 = (0x[0-9A-F]+);/.exec(src);
  if (!m) throw new Error("diacritic masks not found in sqlite3.c");
  return [Number(m[1]), Number(m[2])];
}

const line = (name: string, doc: string, xs: number[]) => {
  const rows: string[] = [];
  for (let i = 0; i < xs.length; i += 24) rows.push(`  ${xs.slice(i, i + 24).join(", ")},`);
  return `/** ${doc} */\nexport const ${name}: readonly number[] = [\n${rows.join("\n")}\n];\n`;
};

/** The generated TypeScript file. */
export function renderTables(src = readFileSync(SQLITE_C, "utf8")): string {
  const version = /#define SQLITE_VERSION\s+"([^"]+)"/.exec(src)?.[1] ?? "?";
  return [
    `/**\n * GENERATED from SQLite ${version}'s fts5_unicode2.c (better-sqlite3's amalgamation) by\n * test/helpers/unicode61-source.ts — do not edit. The unicode61 tokenizer's\n * tables: character categories, case folding, diacritics.\n */\n`,
    line("CATEGORY_BLOCK", "aFts5UnicodeBlock: where each 64k plane starts in CATEGORY_MAP.", cArray(src, "aFts5UnicodeBlock")),
    line("CATEGORY_MAP", "aFts5UnicodeMap: first code point (low 16 bits) of each range.", cArray(src, "aFts5UnicodeMap")),
    line("CATEGORY_DATA", "aFts5UnicodeData: range length << 5 | category.", cArray(src, "aFts5UnicodeData")),
    line("FOLD_ENTRIES", "aEntry: code, flags, range length — the case folding rules (triples).", foldEntries(src)),
    line("FOLD_OFFSETS", "aiOff: offsets a folding rule adds.", cArray(src, "aiOff")),
    line("DIACRITIC_KEYS", "aDia: code point << 3 | range of each letter with a diacritic.", cArray(src, "aDia")),
    line("DIACRITIC_BASE", "aChar: the letter without it (0x80: only removed by remove_diacritics=2).", cArray(src, "aChar")),
    line("DIACRITIC_MASKS", "The combining marks 768–817 that count as diacritics (two bit masks).", diacriticMasks(src)),
  ].join("\n");
}

if (process.argv.includes("--write")) writeFileSync(TABLES_TS, renderTables());
