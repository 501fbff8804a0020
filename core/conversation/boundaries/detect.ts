/**
 * Reads a boundary request from the user's own words: "Sprich meine Arbeit
 * nicht mehr an", "Sprich mich nicht mehr auf Tom an", "Erwähne die Diät
 * nie wieder", "Frag nicht mehr nach meinem Ex", "Don't bring up my job",
 * "Stop mentioning politics", "Never ask me about Tom again". Returns the
 * topic, or undefined.
 */
const PATTERNS: RegExp[] = [
  /\bsprich\s+mich\s+(?:bitte\s+)?(?:nie\s+wieder|nicht\s+mehr|nicht)\s+(?:auf|über)\s+(.+?)\s+an\b/iu,
  /\bsprich\s+(?:bitte\s+)?(.+?)\s+(?:bitte\s+)?(?:nie\s+wieder|nicht\s+mehr|nicht)\s+(?:mehr\s+)?an\b/iu,
  /\berwähne\s+(?:bitte\s+)?(.+?)\s+(?:bitte\s+)?(?:nie\s+wieder|nicht\s+mehr)\b/iu,
  /\bfrag\s+(?:mich\s+)?(?:bitte\s+)?(?:nie\s+wieder|nicht\s+mehr)\s+(?:nach|über)\s+(.+?)(?:[.!?,;]|$)/iu,
  /\bfang\s+(?:bitte\s+)?(?:nie\s+wieder|nicht\s+mehr)\s+(?:mit|von)\s+(.+?)\s+an\b/iu,
  /\b(?:don'?t|do\s+not|never|please\s+stop|stop)\s+(?:ever\s+)?(?:bring(?:ing)?\s+up|mention(?:ing)?|ask(?:ing)?\s+(?:me\s+)?about|talk(?:ing)?\s+about)\s+(.+?)(?:\s+(?:again|anymore|any\s+more|ever))?(?:[.!?,;]|$)/iu,
];

/** Topics too vague to be a boundary. */
const VAGUE = new Set(["das", "es", "dies", "this", "that", "it", "so"]);

/** The topic of a boundary request in `text`, or undefined. */
export function boundaryRequest(text: string): string | undefined {
  for (const p of PATTERNS) {
    const m = p.exec(text);
    const topic = m?.[1]
      ?.replace(/^(?:bitte|please)\s+/iu, "")
      .replace(/\s+(?:bitte|please|mehr)$/iu, "")
      .trim()
      .replace(/[„“"'»«]/g, "");
    if (topic && topic.length <= 80 && !VAGUE.has(topic.toLowerCase())) return topic;
  }
  return undefined;
}
