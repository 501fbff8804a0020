import { existsSync, readFileSync } from "node:fs";
import { generateDataKey } from "../../core/internal.ts";
import type { EnvLines } from "./model-choices.ts";

/** What the setup does about the database key, and the sentence it says. */
export interface DataKeyStep {
  lines: EnvLines;
  say: string | undefined;
}

/**
 * The database key of a new install: a random key written into `.env` as
 * LILO_DATA_KEY, with one sentence saying where it is and that losing it
 * loses the memory. Nothing when a key is already set (environment or
 * `.env`); for an existing unencrypted database no key either (it would no
 * longer open), but the way to encrypt it.
 */
export function dataKeyStep(envFile: string, env: Record<string, string | undefined>, dbPath: string | undefined): DataKeyStep {
  const inFile = existsSync(envFile) && /^\s*(?:export\s+)?LILO_DATA_KEY(?:_FILE)?\s*=\s*\S/m.test(readFileSync(envFile, "utf8"));
  if (inFile || env.LILO_DATA_KEY?.trim() || env.LILO_DATA_KEY_FILE?.trim()) return { lines: {}, say: undefined };
  if (dbPath && existsSync(dbPath)) {
    return {
      lines: {},
      say: `Your memory in ${dbPath} is not encrypted. To encrypt it: stop Lilo, set LILO_DATA_KEY (\`openssl rand -hex 32\`) and run \`npx lilo encrypt --apply\`.`,
    };
  }
  return {
    lines: { LILO_DATA_KEY: generateDataKey() },
    say: `The key that encrypts Lilo's memory is LILO_DATA_KEY in ${envFile}: keep a copy apart from the data (docs/privacy-and-security.md), because whoever loses it loses the memory.`,
  };
}
