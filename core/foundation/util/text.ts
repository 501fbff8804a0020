/** Half an emoji: a high surrogate without its low partner, or a low one without its high partner. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** NUL ends strings in C code on the way (SQLite tools, some clients) and platforms refuse it. */
// eslint-disable-next-line no-control-regex -- NUL is the one control character this strips
const NUL = /\u0000/g;

/**
 * Well-formed text for storing and sending: a lone UTF-16 surrogate (half
 * an emoji, cut by a client or a model) becomes U+FFFD, which encodes in
 * UTF-8, and NUL characters are dropped. Everything else stays as it is.
 */
export function normalizeText(text: string): string {
  return text.replace(LONE_SURROGATE, "\uFFFD").replace(NUL, "");
}
