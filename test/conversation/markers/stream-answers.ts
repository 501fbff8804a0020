/**
 * Answers for the stream filter's property test: built at random (seeded)
 * from every marker the registry knows in several shapes, prose that only
 * looks like markers, code, quotes and truncated endings, and split into
 * pieces as a model's stream delivers them.
 */
import { MARKERS } from "../../../core/conversation/markers/registry.ts";

/** A small seeded generator (mulberry32): every run checks the same cases, and a failure names its seed. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(rnd: () => number, list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;

/** Every marker name and alias the registry knows, written as the model writes markers, in several shapes. */
const MARKER_PIECES = MARKERS.all.flatMap((d) => {
  const names = [d.name, ...(d.aliases ?? [])];
  return names.flatMap((n) => [
    `[${n}: etwas über den Zahnarzt]`,
    `[${n.toLowerCase()}: klein geschrieben]`,
    `(${n}: rund)`,
    `**[${n}: betont]**`,
    `[ ${n} :  mit Leerzeichen ]`,
    `[${n}: mit [Klammer] drin]`,
    `[[${n}: doppelt]]`,
  ]);
});

/** Prose, near-markers, brackets, quotes and emphasis that are not markers. */
const PROSE = [
  "Hallo Anna!",
  "Wie war es beim Zahnarzt?",
  "Das klingt gut.",
  "(siehe oben: Seite 3)",
  "(ein Einschub)",
  "[Wichtig ist das nicht]",
  "[Emotion froh]",
  "[NOTIZ: unbekannt]",
  "[EMOTION: ]",
  "a [b] c",
  "Preis: 3 € (ca.)",
  "**fett**",
  "_kursiv_",
  "***",
  "it`s",
  "„Hallo“ sagte sie",
  "«Zitat»",
  '"ein Zitat"',
  'ein " allein',
  "[",
  "(",
  "]",
  "Ende.",
  "!",
  "…",
];

/** Prose without backticks or quotation marks, which would make a later marker an example. */
const PLAIN_PROSE = PROSE.filter((p) => !/[`"„«»“]/.test(p));

/** Examples: markers inside code, quotes and quote lines stay as they are. */
const EXAMPLES = [
  "```\n[REMEMBER: im Code]\n```",
  "```ts\nconst a = [1, 2];\n```",
  "~~~~\ncode [THOUGHT: x]\n~~~~",
  "```\nnie geschlossen [RECALL: x]",
  "`[RECALL: inline]`",
  "``doppelt ` drin``",
  "> zitiert [THOUGHT: nicht ausgeführt]",
  '"Schreib [REMEMBER: x]"',
  "„[IMPORTANT: y]“",
];

/** Endings the model leaves when it runs out of tokens. */
const TRUNCATED = ["[REMEM", "[EMOTION: fro", "[[VORSCH", "(RECALL: x", "**[THOUGHT: halb"];

const SEPARATORS = [" ", " ", "", "\n", "\n\n", "  \n", "\n\n\n", "\t", "\r\n"];

export function answer(rnd: () => number, withExamples: boolean): string {
  const parts: string[] = [];
  const n = 1 + Math.floor(rnd() * 12);
  for (let i = 0; i < n; i++) {
    const r = rnd();
    const pool = r < 0.35 ? MARKER_PIECES : !withExamples ? PLAIN_PROSE : r < 0.5 ? EXAMPLES : PROSE;
    parts.push(pick(rnd, pool), pick(rnd, SEPARATORS));
  }
  if (rnd() < 0.15) parts.push(pick(rnd, TRUNCATED));
  return parts.join("");
}

export function split(rnd: () => number, text: string): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length;) {
    const size = rnd() < 0.3 ? 1 : 1 + Math.floor(rnd() * 9);
    pieces.push(text.slice(i, i + size));
    i += size;
  }
  return pieces;
}
