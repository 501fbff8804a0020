/**
 * Cached Intl.DateTimeFormat instances. Building one costs tens of
 * microseconds (locale and time-zone data are resolved each time) and the
 * turn formats every message time it shows; a formatter is immutable, so one
 * per (locale, options) serves every call.
 */
const CACHE = new Map<string, Intl.DateTimeFormat>();
/** Different time zones and languages in use stay few; the bound only guards against a leak. */
const MAX_CACHED = 500;

/** The formatter for `locale` and `options`, built once. */
export function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}\u0000${JSON.stringify(options)}`;
  let f = CACHE.get(key);
  if (!f) {
    if (CACHE.size >= MAX_CACHED) CACHE.clear();
    f = new Intl.DateTimeFormat(locale, options);
    CACHE.set(key, f);
  }
  return f;
}
