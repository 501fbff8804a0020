import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import Database from "better-sqlite3-multiple-ciphers";
import { unicode61Tokens } from "../../../../core/memory/recall/keyword-index/unicode61.ts";
import * as tables from "../../../../core/memory/recall/keyword-index/unicode61-tables.ts";
import { SQLITE_C, cArray, diacriticMasks, foldEntries } from "../../../helpers/unicode61-source.ts";

/** FTS5's own tokens of each text (unicode61 remove_diacritics 2), in order. */
function fts5Tokens(texts: string[]): string[][] {
  const db = new Database(":memory:");
  db.exec(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize='unicode61 remove_diacritics 2'); CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');`);
  const ins = db.prepare(`INSERT INTO t(rowid, x) VALUES (?, ?)`);
  texts.forEach((x, i) => ins.run(i + 1, x));
  const out: string[][] = texts.map(() => []);
  for (const r of db.prepare(`SELECT term, doc, offset FROM v ORDER BY doc, offset`).all() as { term: string; doc: number; offset: number }[])
    out[r.doc - 1]![r.offset] = r.term;
  db.close();
  return out;
}

/** A deterministic pseudo-random source. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

describe("unicode61 port (the chat log's keyword index tokenizes as FTS5)", () => {
  it("uses the tables of the SQLite that better-sqlite3 builds", () => {
    const src = readFileSync(SQLITE_C, "utf8");
    expect(tables.CATEGORY_BLOCK).toEqual(cArray(src, "aFts5UnicodeBlock"));
    expect(tables.CATEGORY_MAP).toEqual(cArray(src, "aFts5UnicodeMap"));
    expect(tables.CATEGORY_DATA).toEqual(cArray(src, "aFts5UnicodeData"));
    expect(tables.FOLD_ENTRIES).toEqual(foldEntries(src));
    expect(tables.FOLD_OFFSETS).toEqual(cArray(src, "aiOff"));
    expect(tables.DIACRITIC_KEYS).toEqual(cArray(src, "aDia"));
    expect(tables.DIACRITIC_BASE).toEqual(cArray(src, "aChar"));
    expect(tables.DIACRITIC_MASKS).toEqual(diacriticMasks(src));
  });

  it("tokenizes like FTS5's unicode61: German, English, accents, ß, emoji, digits, apostrophes, decomposed Unicode", () => {
    const texts = [
      "Straße, STRASSE und Grüße aus Köln! Über 3,5 km — Äpfel & Öl.",
      "Don't stop: it's 10:30 o'clock, e-mail me at a.b@c.de #hashtag_word",
      "Crème brûlée, naïve café, Ångström, Dvořák, Łódź, İstanbul, ΣΟΦΊΑ σοφία ΟΔΟΣ",
      "Emoji 🙂👍🏽 inside wörds🙂too, 🎉party, ❤️ heart, 🇩🇪 flag",
      "Decomposed: Cafe\u0301 Mu\u0308nchen A\u030Angstro\u0308m n\u0303 x\u0338y \u0301lonely",
      "Digits ١٢٣ ٤٥ ²³ ½ Ⅻ ① 4th 2026-05-03 0xFF",
      "Fullwidth ＡＢＣ ａｂｃ, ligature ﬁne, Kelvin K, ǅ Dž, ᾈ, Ǆ",
      "中文 日本語のテキスト 한국어 текст ПРИВЕТ עברית العربية हिन्दी ไทย",
      "tabs\tand\nnewlines\r\nzero\u200Bwidth soft\u00ADhyphen nbsp\u00A0here",
      "private use \uE000\uE001 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝟙𝟚 and Deseret 𐐀𐐨",
      "",
      "   ...   ",
    ];
    expect(texts.map(unicode61Tokens)).toEqual(fts5Tokens(texts));
  });

  it("agrees with FTS5 on random text from every plane", () => {
    const next = rng(25);
    const pools = [
      () => String.fromCharCode(32 + Math.floor(next() * 95)),
      () => String.fromCharCode(0xa0 + Math.floor(next() * 0x2000)),
      () => String.fromCharCode(0x300 + Math.floor(next() * 0x40)),
      () => String.fromCodePoint(Math.floor(next() * 0x110000)),
      () => " ",
    ];
    const texts = Array.from({ length: 400 }, () =>
      Array.from({ length: 1 + Math.floor(next() * 30) }, () => pools[Math.floor(next() * pools.length)]!()).join(""),
    ).map((t) => Buffer.from(t, "utf8").toString("utf8")); // lone surrogates as SQLite receives them
    expect(texts.map(unicode61Tokens)).toEqual(fts5Tokens(texts));
  });
});
