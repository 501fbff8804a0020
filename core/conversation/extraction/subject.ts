/**
 * Whom a fact is about: the user, Lilo, or a named person. The
 * extraction model says so; when it does not, the words decide — "Meine
 * Schwester Anna hat einen Hund" is about Anna, "Nein, ich habe keinen Hund"
 * about the user. The judge reads the same so that a correction about one
 * person never touches another's facts.
 */

/** The user, Lilo, or a person's name as written. */
export type Subject = "user" | "lilo" | (string & {});

const RELATIVES =
  "schwester|bruder|mutter|mama|vater|papa|tochter|sohn|frau|mann|freundin|freund|kollegin|kollege|chefin|chef|oma|opa|tante|onkel|cousine|cousin|nachbarin|nachbar|partnerin|partner|sister|brother|mother|mom|mum|father|dad|daughter|son|wife|husband|girlfriend|boyfriend|friend|colleague|boss|grandma|grandpa|aunt|uncle|cousin|neighbour|neighbor|partner";

/** A word in either case of its first letter ("[Ss]chwester"). */
const eitherCase = (words: string) =>
  words
    .split("|")
    .map((w) => `[${w[0]!.toUpperCase()}${w[0]}]${w.slice(1)}`)
    .join("|");
const OWNER = `(?:${eitherCase("meine|meiner|meinen|meinem|meines|mein|my|seine|seiner|seinen|sein|his|her|ihre|ihrer|ihren|ihr|our|unsere|unser")}|\\p{Lu}[\\p{L}]*?(?:'s|s))`;
/** "meine Schwester Anna", "my sister Anna", "Christians Schwester Anna". */
const NAMED_RELATIVE = new RegExp(`(?:^|[^\\p{L}])${OWNER}\\s+(?:${eitherCase(RELATIVES)})\\s+(\\p{Lu}[\\p{L}-]+)`, "u");
const POSSESSIVE = /\b(\p{Lu}[\p{L}-]+?)(?:'s|s)\s+(?:Hund|Katze|Auto|Haus|Wohnung|Job|Arbeit|Freund|Freundin|dog|cat|car|house|flat|job)\b/u;
const SUBJECT_NAME = /^\s*(\p{Lu}[\p{L}-]+)\s+(?:hat|ist|war|wohnt|arbeitet|mag|liebt|has|is|was|lives|works|likes|loves)\b/u;
const FIRST_PERSON = /\b(?:ich|mir|mich|mein|meine|meinen|meinem|i|me|my|mine)\b/iu;
const LILO_WORDS = /\b(?:du|dir|dich|dein|deine|you|your)\b/iu;

/** Names that are never a person: sentence starts and pronouns. */
const NOT_NAMES = new Set([
  "Ich",
  "Du",
  "Er",
  "Sie",
  "Es",
  "Wir",
  "Ihr",
  "Nein",
  "Ja",
  "Doch",
  "Das",
  "Der",
  "Die",
  "I",
  "He",
  "She",
  "It",
  "We",
  "They",
  "No",
  "Yes",
  "The",
]);

/**
 * The subject of `text`. `userName` and `assistantName` are how the user and
 * Lilo are named in extracted facts ("Christian mag Tee" is about the user).
 */
export function subjectOf(text: string, names: { userName: string; assistantName: string }): Subject {
  const relative = NAMED_RELATIVE.exec(text)?.[1];
  if (relative && !NOT_NAMES.has(relative)) return relative;
  const owner = POSSESSIVE.exec(text)?.[1];
  if (owner && !NOT_NAMES.has(owner) && owner !== names.userName && owner !== names.assistantName) return owner;
  const lead = SUBJECT_NAME.exec(text)?.[1];
  if (lead === names.userName) return "user";
  if (lead === names.assistantName) return "lilo";
  if (lead && !NOT_NAMES.has(lead)) return lead;
  if (FIRST_PERSON.test(text)) return "user";
  if (LILO_WORDS.test(text)) return "lilo";
  return "user";
}

/** The model's "about" as a subject: "user"/the user's name → user, "lilo"/Lilo's name → lilo, else the name. */
export function normalizeSubject(about: unknown, names: { userName: string; assistantName: string }): Subject | undefined {
  if (typeof about !== "string" || !about.trim()) return undefined;
  const a = about.trim();
  const low = a.toLowerCase();
  if (low === "user" || low === names.userName.toLowerCase()) return "user";
  if (low === "lilo" || low === "assistant" || low === names.assistantName.toLowerCase()) return "lilo";
  return a.slice(0, 60);
}

/** Do two subjects name different people (so a correction about one must not touch the other)? */
export function otherPerson(a: Subject | undefined, b: Subject | undefined): boolean {
  if (!a || !b) return false;
  return a.toLowerCase() !== b.toLowerCase();
}
