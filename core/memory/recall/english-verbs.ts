/**
 * English verb agreement for the statement form of a question
 * (statement-form-en.ts): "while she writes" said by Anna herself is "while
 * I write"; "What does Anna's dance make?" is answered by "my dance makes".
 */

/** Words that only end like a verb's third person: left as they are after "I". */
const NOT_THIRD_PERSON = new Set(["always", "sometimes", "perhaps", "was", "this", "thus", "as", "its", "plus", "us", "yes", "less", "unless"]);
const THIRD_PERSON: Record<string, string> = { is: "am", has: "have", does: "do", goes: "go", was: "was" };

/** "writes" → "write", "is" → "am", "has" → "have": a third-person verb as the first person says it. */
export function firstPersonPresent(word: string): string {
  const w = word.toLowerCase();
  const known = THIRD_PERSON[w];
  if (known) return known;
  if (NOT_THIRD_PERSON.has(w) || !/^[a-z]{3,}s$/u.test(w) || /(?:ss|us|is)$/u.test(w)) return word;
  if (/[^aeiou]ies$/u.test(w)) return `${word.slice(0, -3)}y`;
  if (/(?:sh|ch|x|z|ss|o)es$/u.test(w)) return word.slice(0, -2);
  return word.slice(0, -1);
}

/** "make" → "makes", "try" → "tries", "watch" → "watches", "have" → "has": the third person of a base form. */
export function thirdPersonPresent(verb: string): string {
  const v = verb.toLowerCase();
  const known: Record<string, string> = { be: "is", have: "has", do: "does", go: "goes" };
  if (known[v]) return known[v];
  if (!/^[a-z-]+$/u.test(v) || v.endsWith("s")) return verb;
  if (/[^aeiou]y$/u.test(v)) return `${verb.slice(0, -1)}ies`;
  if (/(?:sh|ch|x|z|o)$/u.test(v)) return `${verb}es`;
  return `${verb}s`;
}
