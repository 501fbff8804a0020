/**
 * SQLite FTS5's `unicode61 remove_diacritics 2` tokenizer, ported line by
 * line (fts5UnicodeTokenize, sqlite3Fts5UnicodeFold, fts5_remove_diacritic)
 * with SQLite's own tables (unicode61-tables.ts, generated from the SQLite
 * that better-sqlite3 builds): the chat log's keyword index must see the same
 * words as `messages_ctx_user_fts`, or its bm25 would differ. Token
 * characters are the categories L*, N*, Co and code points SQLite's table
 * does not know; combining diacritics (U+0300–U+0331) inside a word are part
 * of it and folded away; everything is lower-cased by SQLite's table, not by
 * JavaScript's (no final sigma, no dotted i).
 */
import {
  CATEGORY_BLOCK,
  CATEGORY_DATA,
  CATEGORY_MAP,
  DIACRITIC_BASE,
  DIACRITIC_KEYS,
  DIACRITIC_MASKS,
  FOLD_ENTRIES,
  FOLD_OFFSETS,
} from "./unicode61-tables.ts";

/** FTS5 cuts a token at this many UTF-8 bytes (FTS5_MAX_TOKEN_SIZE): such words are not ported (see `Unicode61Error`). */
const MAX_TOKEN_BYTES = 32768;

/** A text FTS5 would index differently from this port (a single word over 32 KiB). */
export class Unicode61Error extends Error {}

/** Categories of "L* N* Co" (sqlite3Fts5UnicodeCatParse's numbering), and 0: what the table does not list. */
const TOKEN_CATEGORY = new Uint8Array(32);
for (const c of [0, 5, 6, 7, 8, 9, 30, 13, 14, 15, 31]) TOKEN_CATEGORY[c] = 1;

/** sqlite3Fts5UnicodeCategory. */
function category(code: number): number {
  if (code >= 1 << 20) return 0;
  let lo = CATEGORY_BLOCK[code >> 16]!;
  let hi = CATEGORY_BLOCK[1 + (code >> 16)]!;
  const key = code & 0xffff;
  let res = -1;
  while (hi > lo) {
    const t = (hi + lo) >> 1;
    if (key >= CATEGORY_MAP[t]!) {
      res = t;
      lo = t + 1;
    } else hi = t;
  }
  if (res < 0) return 0;
  if (key >= CATEGORY_MAP[res]! + (CATEGORY_DATA[res]! >> 5)) return 0;
  const ret = CATEGORY_DATA[res]! & 0x1f;
  if (ret !== 30) return ret;
  return (key - CATEGORY_MAP[res]!) & 1 ? 5 : 9;
}

/** sqlite3Fts5UnicodeAscii: which ASCII characters are token characters (NUL never). */
const ASCII_TOKEN = new Uint8Array(128);
for (let i = 0, t = 0; i < 128; t++) {
  const n = (CATEGORY_DATA[t]! >> 5) + i;
  for (; i < 128 && i < n; i++) ASCII_TOKEN[i] = TOKEN_CATEGORY[CATEGORY_DATA[t]! & 0x1f]!;
}
ASCII_TOKEN[0] = 0;

const isAlnum = (code: number): boolean => TOKEN_CATEGORY[category(code)] === 1;

/** sqlite3Fts5UnicodeIsdiacritic. */
function isDiacritic(c: number): boolean {
  if (c < 768 || c > 817) return false;
  return c < 800 ? (DIACRITIC_MASKS[0]! & (1 << (c - 768))) !== 0 : (DIACRITIC_MASKS[1]! & (1 << (c - 800))) !== 0;
}

/** fts5_remove_diacritic with bComplex (remove_diacritics 2). */
function removeDiacritic(c: number): number {
  const key = (c << 3) | 7;
  let res = 0;
  let lo = 0;
  let hi = DIACRITIC_KEYS.length - 1;
  while (hi >= lo) {
    const t = (hi + lo) >> 1;
    if (key >= DIACRITIC_KEYS[t]!) {
      res = t;
      lo = t + 1;
    } else hi = t - 1;
  }
  const k = DIACRITIC_KEYS[res]!;
  return c > (k >> 3) + (k & 7) ? c : DIACRITIC_BASE[res]! & 0x7f;
}

/** sqlite3Fts5UnicodeFold for a non-ASCII code point, diacritics removed (0: the character vanishes). */
function foldNonAscii(c: number): number {
  if (c < 65536) {
    let lo = 0;
    let hi = FOLD_ENTRIES.length / 3 - 1;
    let res = -1;
    while (hi >= lo) {
      const t = (hi + lo) >> 1;
      if (c - FOLD_ENTRIES[t * 3]! >= 0) {
        res = t;
        lo = t + 1;
      } else hi = t - 1;
    }
    let ret = c;
    const [code, flags, range] = [FOLD_ENTRIES[res * 3]!, FOLD_ENTRIES[res * 3 + 1]!, FOLD_ENTRIES[res * 3 + 2]!];
    if (c < code + range && (0x01 & flags & (code ^ c)) === 0) ret = (c + FOLD_OFFSETS[flags >> 1]!) & 0xffff;
    return removeDiacritic(ret);
  }
  return c >= 66560 && c < 66600 ? c + 40 : c;
}

/** Non-ASCII folds, cached: a chat log uses few distinct characters. */
const folded = new Map<number, string>();
function foldChar(c: number): string {
  let f = folded.get(c);
  if (f === undefined) {
    const code = foldNonAscii(c);
    folded.set(c, (f = code ? String.fromCodePoint(code) : ""));
  }
  return f;
}

/** The code point at `i` as SQLite's READ_UTF8 sees it (surrogates and U+FFFE/FFFF become U+FFFD). */
function codeAt(text: string, i: number): number {
  const c = text.codePointAt(i)!;
  return (c & 0xfffff800) === 0xd800 || (c & 0xfffffffe) === 0xfffe ? 0xfffd : c;
}

/**
 * Calls `token` with each token of `text`, folded as FTS5 stores it, in
 * order (FTS5 counts each one toward the column's size, empty ones too).
 */
export function eachToken(text: string, token: (t: string) => void): void {
  const n = text.length;
  let i = 0;
  for (;;) {
    // Skip separators; a token starts at a token character (never at a lone diacritic).
    let start = -1;
    while (i < n) {
      const u = text.charCodeAt(i);
      if (u < 128) {
        if (ASCII_TOKEN[u]) {
          start = i;
          break;
        }
        i++;
      } else {
        const c = codeAt(text, i);
        if (isAlnum(c)) {
          start = i;
          break;
        }
        i += c > 0xffff ? 2 : 1;
      }
    }
    if (start < 0) return;
    // ASCII runs are lower-cased a slice at a time (exact for A–Z); other characters through SQLite's fold.
    let out = "";
    while (i < n) {
      const u = text.charCodeAt(i);
      if (u < 128) {
        if (!ASCII_TOKEN[u]) break;
        i++;
        continue;
      }
      const c = codeAt(text, i);
      if (!isAlnum(c) && !isDiacritic(c)) break;
      out += text.slice(start, i).toLowerCase() + foldChar(c);
      i += c > 0xffff ? 2 : 1;
      start = i;
    }
    const t = out + text.slice(start, i).toLowerCase();
    if (t.length * 3 > MAX_TOKEN_BYTES && Buffer.byteLength(t) > MAX_TOKEN_BYTES) throw new Unicode61Error("a word longer than FTS5 indexes whole");
    token(t);
  }
}

/** The tokens of a text, folded as FTS5's unicode61 (remove_diacritics 2) stores them. */
export function unicode61Tokens(text: string): string[] {
  const out: string[] = [];
  eachToken(text, (t) => out.push(t));
  return out;
}
