/**
 * The correction prefilter (docs/spec.md §6.1): does a message sound like the user
 * contradicts Lilo? Generous on purpose — a false hit costs one judge call,
 * and the judge keeps everything in doubt; a miss means a wrong note stays.
 *
 * Patterns match whole words only: JavaScript's `\b` knows no umlauts, so the
 * boundaries are letter/digit lookarounds ("falsch" is not in "Falschgeld").
 *
 * False friends we deliberately leave out (documented in the README):
 * - "nicht mehr lange / weit / als …" ("nicht mehr lange bis Weihnachten"):
 *   time and quantity phrases, not an outdated fact.
 * - "nicht wahr?" as a tag question ("Schönes Wetter, nicht wahr?").
 * - compounds such as "Falschgeld", "Falschparker", "Wrongful": whole words only.
 * - idioms with "kein" / "no": "keine Ahnung", "keine Zeit", "no idea".
 * Everything else that merely *might* be a correction stays in.
 */

const L = "[\\p{L}\\p{N}_]";
/** Start and end of a whole word (or phrase). */
const B = `(?<!${L})`;
const E = `(?!${L})`;
/** Up to three words in between ("nie im Leben gesagt"). */
const GAP = "(?:\\s+\\S+){0,3}\\s+";

/**
 * "Ich habe keine Ahnung / keine Zeit", "I have no idea": idioms, not a
 * denied fact; left out of the "kein" and "I don't have" patterns.
 */
const NOT_IDIOM_DE = `(?!\\s+(?:ahnung|zeit|lust|problem|probleme|sorge|sorgen|idee|plan|thema|angst|eile)${E})`;
const NOT_IDIOM_EN = `(?!\\s+(?:idea|clue|time|problem|problems|plans?|worries)${E})`;

/** Named patterns, German then English; the name is logged with a hit. */
const PATTERNS: ReadonlyArray<readonly [name: string, source: string]> = [
  ["stimmt nicht", `stimmt\\s+(?:so\\s+|gar\\s+|doch\\s+|aber\\s+|leider\\s+|überhaupt\\s+|einfach\\s+)*nicht`],
  ["falsch", `(?:falsch|falsche|falscher|falsches|falschen|falschem|fälschlich|fälschlicherweise)`],
  ["nicht mehr", `nicht\\s+mehr(?!\\s+(?:lange|weit|als)${E})`],
  ["erfunden", `(?:erfunden|ausgedacht|frei\\s+erfunden)`],
  ["nie gesagt", `(?:nie|niemals)${GAP}(?:gesagt|erwähnt|behauptet|geschrieben|erzählt)`],
  ["verwechselt", `(?:verwechselst|verwechselt|verwechselung|verwechslung|durcheinander\\s*gebracht)`],
  ["nicht richtig", `nicht\\s+(?:ganz\\s+)?(?:richtig|korrekt|zutreffend|wahr(?!\\s*\\?))`],
  ["irrst dich", `(?:irrst|geirrt|irrtum)`],
  ["veraltet", `(?:veraltet|überholt|nicht\\s+aktuell)`],
  ["korrigieren", `(?:korrigier|korrigiere|korrigieren|korrektur|richtigstellung)`],
  ["quatsch", `(?:quatsch|unsinn|blödsinn)`],
  ["wie kommst du darauf", `wie\\s+kommst\\s+du\\s+(?:denn\\s+|bloß\\s+|nur\\s+)?(?:darauf|drauf|auf)`],
  ["kein", `(?:(?:habe|hab|hatte|bin|war|besitze)\\s+(?:doch\\s+|gar\\s+|überhaupt\\s+|nie\\s+)*|gar\\s+)(?:kein|keine|keinen|keinem|keiner)${NOT_IDIOM_DE}`],
  ["nicht gesagt", `nicht\\s+(?:so\\s+)?(?:gesagt|behauptet|erzählt|geschrieben)`],
  ["liegst daneben", `(?:liegst|lagst)(?:\\s+\\S+){0,2}\\s+daneben`],
  ["that's wrong", `(?:wrong|incorrect|not\\s+(?:true|right|correct|accurate))`],
  ["I never said", `never${GAP}(?:said|mentioned|told|claimed|wrote)`],
  ["you're confusing", `(?:you(?:'re|\\s+are)\\s+confusing|mix(?:ed|ing)(?:\\s+\\S+)?\\s+up)`],
  ["made up", `(?:made|making)\\s+(?:that|this|it|things)?\\s*up`],
  ["no longer", `(?:no\\s+longer|not\\s+any\\s*more|anymore)`],
  ["mistaken", `(?:mistaken|you\\s+misunderstood)`],
  ["outdated", `(?:outdated|out\\s+of\\s+date)`],
  ["that's not what", `that(?:'s|\\s+is|\\s+was)\\s+not\\s+what\\s+i`],
  ["I don't have", `i\\s+(?:(?:don't|do\\s+not|never)\\s+(?:have|had|own|owned)\\s+(?:a|an|any)|have\\s+no)${NOT_IDIOM_EN}`],
  ["I didn't say", `(?:didn't|did\\s+not)\\s+(?:say|mention|tell\\s+you)`],
  [
    "you're off",
    `(?:you(?:'re|\\s+are)\\s+(?:way\\s+|completely\\s+|totally\\s+)?off(?:\\s+base)?|where\\s+did\\s+you\\s+get\\s+(?:that|this)|what\\s+makes\\s+you\\s+think)`,
  ],
];

const COMPILED = PATTERNS.map(([name, source]) => ({ name, re: new RegExp(`${B}(?:${source})${E}`, "iu") }));

/** The number of patterns (the seed has "about 20"). */
export const CORRECTION_PATTERN_COUNT = COMPILED.length;

/** Typographic apostrophes become plain ones so "that’s" and "that's" match alike. */
function normalize(text: string): string {
  return text.replace(/[\u2018\u2019\u02BC]/g, "'");
}

/** The name of the first correction pattern the message matches, or undefined. */
export function correctionTrigger(text: string): string | undefined {
  const t = normalize(text);
  return COMPILED.find((p) => p.re.test(t))?.name;
}
