/**
 * Reads the MATCH expressions the chat-log search writes (keyword-query.ts:
 * quoted words, a `*` for a prefix, joined by OR) back into phrases of one
 * folded token each, as FTS5 would tokenize them. Anything else — another
 * shape, or a quoted word FTS5 would cut into several tokens or none — is
 * undefined: FTS5 answers that search itself.
 */
import type { Phrase } from "./user-keyword-index.ts";
import { unicode61Tokens } from "./unicode61.ts";

const PHRASE = /"((?:[^"]|"")*)"(\*?)/y;

/** The phrases of an OR query of quoted single words, or undefined. */
export function matchPhrases(match: string): Phrase[] | undefined {
  const out: Phrase[] = [];
  let at = 0;
  for (;;) {
    PHRASE.lastIndex = at;
    const m = PHRASE.exec(match);
    if (!m) return undefined;
    const tokens = unicode61Tokens(m[1]!.replaceAll('""', '"'));
    if (tokens.length !== 1) return undefined;
    out.push({ token: tokens[0]!, prefix: m[2] === "*" });
    at = PHRASE.lastIndex;
    if (at === match.length) return out;
    if (!match.startsWith(" OR ", at)) return undefined;
    at += 4;
  }
}
