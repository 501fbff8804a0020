/**
 * Texts for the keyword indexes' tests: words that FTS5's unicode61 folds
 * in every way it does (diacritics, ß, final sigma, CJK, emoji, digits,
 * apostrophes, prefixes of each other), drawn by a seeded generator.
 */
export const WORDS = [
  "Kino",
  "Kinoabend",
  "Straße",
  "strasse",
  "Grüße",
  "café",
  "Café",
  "naïve",
  "über",
  "Über",
  "Müller",
  "mueller",
  "Pizza",
  "Pizzeria",
  "2026",
  "10:30",
  "don't",
  "it's",
  "🙂",
  "party🎉",
  "Ärger",
  "ärgern",
  "Öl",
  "Ölwechsel",
  "Garten",
  "Gartenparty",
  "Hund",
  "Hunde",
  "Urlaub",
  "Urlaubsreise",
  "Oma",
  "Omas",
  "Crème",
  "brûlée",
  "Dvořák",
  "Ⅻ",
  "σοφία",
  "ΣΟΦΊΑ",
  "中文",
  "Cafe\u0301",
  "painting",
  "paints",
  "Kinderwagen",
  "kind",
  "Garage",
  "Gartenzwerg",
  "ol",
  "x",
];

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}
const next = rng(2025);
export const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
export const sentence = () => Array.from({ length: 2 + Math.floor(next() * 12) }, () => pick(WORDS)).join(pick([" ", ", ", " - ", "! "]));

/** MATCH expressions of the shapes keyword-query.ts writes (quoted words, prefixes, OR). */
export const QUERIES = [
  '"kino"*',
  '"kino"',
  '"strasse"* OR "straße"',
  '"cafe"* OR "ol"',
  '"x" OR "ol"* OR "2026"',
  '"uber"* OR "muller" OR "mueller"*',
  '"σοφια"* OR "中文"',
  '"garten"* OR "hund"* OR "urlaub"* OR "oma"*',
  '"dont"*',
];
