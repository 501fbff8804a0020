import { ERROR_TEXTS, type ErrorLanguage, type SystemErrorCode } from "../error-texts.ts";

/**
 * System errors (ENOENT, EACCES, …) as a sentence a user can act on, instead
 * of Node's "ENOENT: no such file or directory, open '/x'". The sentences are
 * in the error table (error-texts.ts), in both languages.
 */

interface SystemError {
  code?: unknown;
  path?: unknown;
  address?: unknown;
  hostname?: unknown;
  port?: unknown;
  message?: unknown;
}

/** A system error by its code and the file or address it names; undefined for any other error. */
export function systemSentence(err: unknown, language: ErrorLanguage = "en"): string | undefined {
  const e = (typeof err === "object" && err !== null ? err : {}) as SystemError;
  const texts = ERROR_TEXTS[language];
  const make = typeof e.code === "string" && Object.hasOwn(texts.system, e.code) ? texts.system[e.code as SystemErrorCode] : undefined;
  if (!make) return undefined;
  const where =
    typeof e.path === "string"
      ? e.path
      : typeof e.hostname === "string"
        ? e.hostname
        : typeof e.address === "string"
          ? `${e.address}${typeof e.port === "number" ? `:${e.port}` : ""}`
          : texts.someFile;
  return make(where);
}

/** The error as one English sentence: a system error by its code and path, anything else by its message. */
export function sentence(err: unknown): string {
  return systemSentence(err) ?? (err instanceof Error ? err.message : String(err));
}
