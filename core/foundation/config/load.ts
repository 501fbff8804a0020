import { existsSync, readFileSync } from "node:fs";
import dotenv from "dotenv";
import { loadConfig, type Env, type LiloConfig } from "./config.ts";
import type { AnySection, SectionValues } from "./section.ts";
import { ConfigError } from "../errors.ts";

/** The `.env` file named by LILO_ENV_FILE (default `.env`). */
export function envFilePath(env: Env): string {
  return env.LILO_ENV_FILE?.trim() || ".env";
}

/**
 * Adds the variables of the `.env` file to `env` (a variable already set
 * wins, as with dotenv); a missing file adds nothing. Returns the file's path.
 * Callers pass `process.env`, so libraries reading it see the file's values too.
 */
export function readEnvFile(env: Env): string {
  const path = envFilePath(env);
  if (!existsSync(path)) return path;
  let vars: Record<string, string>;
  try {
    vars = dotenv.parse(readFileSync(path));
  } catch (err) {
    throw new ConfigError(`${path} could not be read: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  for (const [k, v] of Object.entries(vars)) if (env[k] === undefined) env[k] = v;
  return path;
}

/**
 * The configuration of `npm start` and the `lilo` command: the `.env` file
 * read into `env`, then every variable of the core and of `sections` parsed
 * (ConfigError naming each wrong one).
 */
export function loadConfigFromEnv<const S extends readonly AnySection[] = []>(env: Env, sections: S = [] as unknown as S): LiloConfig & SectionValues<S> {
  readEnvFile(env);
  return loadConfig(env, sections);
}
