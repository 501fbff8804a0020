/**
 * Quote check (docs/spec.md §10, Beyond): every quotation of four words or more in a
 * report is looked up in the transcripts the analyst saw. Matching ignores
 * case, spacing, quote styles and punctuation at the ends; an ellipsis inside
 * a quote splits it into pieces that must all appear, in order.
 */

/** One quote and whether it was found in the transcripts. */
export interface QuoteCheck {
  quote: string;
  verified: boolean;
}

/** Quotation marks the analyst may use, opener → possible closers: „…“, “…”, "…", »…«, «…». */
const CLOSERS: Record<string, string> = { "„": '“”"', "“": "”", '"': '"', "»": "«", "«": "»" };

/**
 * The distinct quotes of at least `minWords` words in a text, in order of
 * appearance. One pass left to right, so the German closing “ is never
 * mistaken for an English opening one.
 */
export function extractQuotes(text: string, minWords = 4): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    const closers = CLOSERS[text[i]!];
    if (!closers) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < text.length && text[j] !== "\n" && !closers.includes(text[j]!)) j++;
    if (j >= text.length || text[j] === "\n") {
      i++; // an unclosed mark: not a quote
      continue;
    }
    const quote = text.slice(i + 1, j).trim();
    if (quote.split(/\s+/).filter(Boolean).length >= minWords && !out.includes(quote)) out.push(quote);
    i = j + 1;
  }
  return out;
}

/** Checks every quote of `reports` against the transcript text. */
export function verifyQuotes(reports: string[], transcript: string): QuoteCheck[] {
  const haystack = normalize(transcript);
  const quotes = [...new Set(reports.flatMap((r) => extractQuotes(r)))];
  return quotes.map((quote) => ({ quote, verified: appears(quote, haystack) }));
}

function appears(quote: string, haystack: string): boolean {
  const pieces = quote
    .split(/…|\.\.\.|\[\s*…?\s*\]/)
    .map(normalize)
    .filter((p) => p.length > 0);
  if (pieces.length === 0) return false;
  let from = 0;
  for (const piece of pieces) {
    const at = haystack.indexOf(piece, from);
    if (at < 0) return false;
    from = at + piece.length;
  }
  return true;
}

/** Lower case, one kind of quote and apostrophe, single spaces, no punctuation at the ends. */
function normalize(text: string): string {
  return text
    .toLocaleLowerCase()
    .replace(/[„“”»«"]/g, '"')
    .replace(/[‘’`´]/g, "'")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^[\s"'.,;:!?()\-–—]+|[\s"'.,;:!?()\-–—]+$/g, "");
}
