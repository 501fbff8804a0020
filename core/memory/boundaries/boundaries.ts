/**
 * Boundaries: topics the user asked Lilo never to bring up on her
 * own ("Sprich meine Arbeit nicht mehr an"). An item is about a boundary
 * when it holds one of the boundary's words (a word of four letters or more
 * also as the start of a longer word: "Arbeit" covers "Arbeitsplatz"; a
 * shorter one only as a whole word). Every job that speaks on its own reads
 * this guard: the sheet (unless the user raises the topic in this message),
 * greetings, concern pushes, follow-up topics, the reflection and the diary ping.
 */
import type { Boundary, BoundariesStore } from "../../foundation/store/boundaries.ts";

const FILLER = new Set([
  "mein",
  "meine",
  "meinen",
  "meinem",
  "meiner",
  "dein",
  "deine",
  "die",
  "der",
  "das",
  "den",
  "dem",
  "ein",
  "eine",
  "einen",
  "über",
  "ueber",
  "von",
  "mit",
  "und",
  "oder",
  "mehr",
  "nicht",
  "bitte",
  "thema",
  "the",
  "my",
  "your",
  "a",
  "an",
  "of",
  "about",
  "and",
  "or",
  "topic",
  "please",
]);

/** The words that identify a boundary's topic. */
function boundaryWords(text: string): string[] {
  return [
    ...new Set(
      text
        .toLowerCase()
        .normalize("NFC")
        .split(/[^\p{L}\p{N}]+/u)
        .filter((w) => w.length >= 2 && !FILLER.has(w)),
    ),
  ];
}

/** Does `text` touch the topic of a boundary with these words? */
function touches(text: string, words: string[]): boolean {
  if (!words.length) return false;
  const tokens = text
    .toLowerCase()
    .normalize("NFC")
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  return words.some((w) => tokens.some((t) => (w.length >= 4 ? t.startsWith(w) : t === w)));
}

/** A user's boundaries as one check. */
interface BoundaryCheck {
  /** The boundaries in force. */
  readonly list: readonly Boundary[];
  /** The boundary `text` is about, if any. */
  about(text: string): Boundary | undefined;
  /** `items` without those about a boundary. */
  filter<T>(items: T[], textOf: (item: T) => string): T[];
}

/** Reads a user's boundaries and checks texts against them. */
export class BoundaryGuard {
  constructor(private readonly store: BoundariesStore) {}

  /**
   * The check for one user. `raisedIn`: the user's own message — a boundary
   * whose topic it raises does not apply to this answer.
   */
  for(userId: string, raisedIn?: string): BoundaryCheck {
    const all = this.store.list(userId).map((b) => ({ b, words: boundaryWords(b.text) }));
    const active = raisedIn === undefined ? all : all.filter((x) => !touches(raisedIn, x.words));
    const about = (text: string) => active.find((x) => touches(text, x.words))?.b;
    return {
      list: active.map((x) => x.b),
      about,
      filter: (items, textOf) => items.filter((i) => !about(textOf(i))),
    };
  }
}
