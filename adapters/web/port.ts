/** A port as a person types it: decimal digits only, so "", "0x50", "1e3", " 80" or "80.0" are not taken for a port. */
const DIGITS = /^\d{1,5}$/;

/**
 * Reads `text` as a port: 1–65535, or 0 where `zero` says what 0 means there. Returns the port, or the
 * sentence that says why it is none.
 */
export function readPort(text: string, zero: boolean): { port: number } | { problem: string } {
  const n = DIGITS.test(text) ? Number(text) : NaN;
  const min = zero ? 0 : 1;
  if (Number.isInteger(n) && n >= min && n <= 65535) return { port: n };
  return { problem: `a port is a decimal number from ${min} to 65535, not "${text}"` };
}
