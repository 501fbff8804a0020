/**
 * The one way `lilo` prints a time for a person: local "YYYY-MM-DD HH:MM" in
 * Lilo's time zone (LILO_TIMEZONE), in every list and detail alike. Times
 * are stored in UTC; `--json` prints them as stored (ISO), for scripts.
 */

/** An ISO time as local "YYYY-MM-DD HH:MM" in `timeZone`; a bare day (an imported memory's) stays as it is. */
export function localStamp(iso: string, timeZone: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(iso)) return iso; // a bare day has no time to convert
  // "sv-SE" writes dates as YYYY-MM-DD HH:MM.
  return new Intl.DateTimeFormat("sv-SE", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" }).format(
    new Date(iso),
  );
}
