/**
 * Lilo's moods, as set by the `[EMOTION: mood]` marker at the end of an answer.
 * The German ids are canonical: they are stored and shown by adapters
 * (each adapter maps them to its platform's reactions, e.g. adapters/telegram/reactions.ts).
 */
export const MOODS = ["freude", "nachdenklich", "neutral", "traurig", "neugierig", "besorgt", "verspielt", "liebevoll"] as const;

/** One of the eight canonical mood ids. */
export type Mood = (typeof MOODS)[number];

/**
 * Variants the model writes instead of the canonical id, in folded form
 * (lower case, no diacritics, ß→ss). Umlauts are listed twice because models
 * sometimes transliterate them ("gluecklich") and folding only covers "glücklich".
 */
const VARIANTS: Record<Mood, readonly string[]> = {
  freude: [
    "froh",
    "frohlich",
    "froehlich",
    "glucklich",
    "gluecklich",
    "freudig",
    "heiter",
    "begeistert",
    "gutgelaunt",
    "happy",
    "happiness",
    "joy",
    "joyful",
    "glad",
    "cheerful",
    "delighted",
    "excited",
  ],
  nachdenklich: ["grubelnd", "gruebelnd", "besinnlich", "reflektiert", "thoughtful", "pensive", "reflective", "contemplative"],
  neutral: ["ruhig", "gelassen", "entspannt", "ausgeglichen", "sachlich", "calm", "relaxed"],
  traurig: [
    "trauer",
    "betrubt",
    "betruebt",
    "bedruckt",
    "bedrueckt",
    "wehmutig",
    "wehmuetig",
    "niedergeschlagen",
    "melancholisch",
    "sad",
    "sadness",
    "unhappy",
    "sorrow",
    "melancholic",
    "melancholy",
  ],
  neugierig: ["neugier", "interessiert", "gespannt", "wissbegierig", "fasziniert", "curious", "curiosity", "interested", "intrigued", "fascinated"],
  besorgt: ["sorge", "sorgen", "beunruhigt", "angstlich", "aengstlich", "nervos", "nervoes", "worried", "worry", "concerned", "anxious", "nervous", "uneasy"],
  verspielt: [
    "albern",
    "spielerisch",
    "lustig",
    "witzig",
    "frech",
    "schelmisch",
    "ubermutig",
    "uebermuetig",
    "playful",
    "silly",
    "funny",
    "cheeky",
    "mischievous",
  ],
  liebevoll: [
    "warm",
    "zartlich",
    "zaertlich",
    "herzlich",
    "liebe",
    "innig",
    "fursorglich",
    "fuersorglich",
    "loving",
    "love",
    "affectionate",
    "tender",
    "caring",
  ],
};

/**
 * Each mood's name in the persona's language: what the model is taught to
 * write and what a chat shows. The German ids stay the stored form; an
 * English name is also one of its variants above, so it maps back.
 */
export const MOOD_NAMES: Readonly<Record<"de" | "en", Record<Mood, string>>> = {
  de: {
    freude: "freude",
    nachdenklich: "nachdenklich",
    neutral: "neutral",
    traurig: "traurig",
    neugierig: "neugierig",
    besorgt: "besorgt",
    verspielt: "verspielt",
    liebevoll: "liebevoll",
  },
  en: {
    freude: "happy",
    nachdenklich: "thoughtful",
    neutral: "neutral",
    traurig: "sad",
    neugierig: "curious",
    besorgt: "worried",
    verspielt: "playful",
    liebevoll: "loving",
  },
};

/** Folded word → mood; canonical ids map to themselves. */
const LOOKUP: ReadonlyMap<string, Mood> = new Map(MOODS.flatMap((mood) => [[mood, mood] as const, ...VARIANTS[mood].map((v) => [v, mood] as const)]));

/** Lower case, strip diacritics (NFD + combining marks), ß→ss. */
function fold(word: string): string {
  return word.toLowerCase().normalize("NFD").replace(/\p{M}/gu, "").replace(/ß/g, "ss");
}

/**
 * Maps whatever the model wrote in `[EMOTION: ...]` to a canonical mood.
 * Matches whole words only (so "sorgenfrei" is not "besorgt"), the first
 * recognised word wins; returns undefined when nothing matches.
 */
export function normalizeMood(raw: string): Mood | undefined {
  for (const word of raw.split(/[^\p{L}]+/u)) {
    if (!word) continue;
    const mood = LOOKUP.get(fold(word));
    if (mood) return mood;
  }
  return undefined;
}
