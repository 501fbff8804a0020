import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { ConfigError } from "../errors.ts";

/**
 * The key that encrypts Lilo's database at rest (SQLCipher 4 format through
 * SQLite3MultipleCiphers: every page of the database, its WAL and journal).
 * A key of 64 hex digits, as `lilo setup` generates it, is used as the raw
 * 256-bit key: opening costs nothing. Any other text is a passphrase, run
 * through SQLCipher's key derivation (256,000 rounds of PBKDF2) on each open.
 * The key never leaves memory: it is not logged and not stored in the database.
 */
export interface DataKey {
  /** Where the key came from, for sentences: "LILO_DATA_KEY" or "LILO_DATA_KEY_FILE (/run/…)". */
  readonly source: string;
  /** The statements that put the key on a fresh connection, in order. */
  readonly pragmas: readonly string[];
  /** The key's text, for the files encrypted outside SQLite (exports). */
  readonly text: string;
}

/** The cipher settings every encrypted connection starts with: SQLCipher 4, so `sqlcipher` can read a copy too. */
const CIPHER_PRAGMAS = ["cipher = 'sqlcipher'", "legacy = 4"] as const;

const RAW_KEY = /^[0-9a-fA-F]{64}$/;

/** A new random key: 32 bytes as 64 hex digits. */
export function generateDataKey(): string {
  return randomBytes(32).toString("hex");
}

/** The data key from its text; `source` names where it came from. */
export function dataKeyOf(text: string, source = "LILO_DATA_KEY"): DataKey {
  const value = text.trim();
  if (value === "") throw new ConfigError(`${source} is empty: set it to the key of the database, or remove it`);
  const key = RAW_KEY.test(value) ? `"x'${value.toLowerCase()}'"` : `'${value.replaceAll("'", "''")}'`;
  return { source, pragmas: [...CIPHER_PRAGMAS, `key = ${key}`], text: value };
}

/** The statements that change a connection's key to `next` (SQLite3MultipleCiphers' rekey). */
export function rekeyPragmas(next: DataKey): string[] {
  const last = next.pragmas[next.pragmas.length - 1]!;
  return [...CIPHER_PRAGMAS, last.replace(/^key =/, "rekey =")];
}

/** What the configuration says about the key: the variable, or the file that holds it. */
export interface DataKeySettings {
  dataKey?: string | undefined;
  dataKeyFile?: string | undefined;
}

/**
 * The configured data key, or undefined when neither LILO_DATA_KEY nor
 * LILO_DATA_KEY_FILE is set. A key file that cannot be read is refused
 * with its path, never skipped: Lilo would otherwise start on a plain database.
 */
export function configuredDataKey(settings: DataKeySettings): DataKey | undefined {
  if (settings.dataKey !== undefined && settings.dataKeyFile !== undefined) {
    throw new ConfigError("LILO_DATA_KEY and LILO_DATA_KEY_FILE are both set: keep one of them");
  }
  if (settings.dataKey !== undefined) return dataKeyOf(settings.dataKey);
  if (settings.dataKeyFile === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(settings.dataKeyFile, "utf8");
  } catch (err) {
    throw new ConfigError(`LILO_DATA_KEY_FILE ${settings.dataKeyFile} cannot be read: ${(err as Error).message}`, { cause: err });
  }
  return dataKeyOf(text, `LILO_DATA_KEY_FILE (${settings.dataKeyFile})`);
}
