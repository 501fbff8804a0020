/**
 * Where a form may send the browser back to: only a path on this server. A browser reads `//host`, `/\host`
 * and `/<tab>/host` (it drops tabs and line breaks from an address, and takes `\` for `/`) as another site,
 * so such a value, also when percent-encoded, counts as no path at all.
 */
export function sameSitePath(raw: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return undefined; // a broken %-escape: not a path this server wrote
  }
  return [raw, decoded].every(isPlainPath) ? raw : undefined;
}

// One leading slash, then no second slash or backslash; no backslash, control character or line break anywhere.
const isPlainPath = (s: string) => /^\/(?![/\\])/.test(s) && !/[\\\p{Cc}]/u.test(s);
