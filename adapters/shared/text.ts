/** Half an emoji: a high surrogate without its low partner, or a low one without its high partner. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** NUL ends strings in C code on the way and platforms refuse it. */
const NUL = /\u0000/g;

/**
 * Well-formed text for sending: a lone UTF-16 surrogate (half an emoji)
 * becomes U+FFFD and NUL characters are dropped. The core cleans what it
 * stores and its answers the same way; the adapters clean everything they
 * send (pushes, stored notes shown by commands), because one bad character
 * makes a platform refuse the whole message.
 */
export function normalizeText(text: string): string {
  return text.replace(LONE_SURROGATE, "\uFFFD").replace(NUL, "");
}
