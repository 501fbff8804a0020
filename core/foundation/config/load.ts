import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import dotenv from "dotenv";
import { loadConfig, type Env, type LiloConfig } from "./config.ts";
import type { AnySection, SectionValues } from "./section.ts";
import { ConfigError } from "../errors.ts";
import { sentence } from "../util/errno.ts";

/** Where `npm start` and `lilo` look for Lilo: its home, and the `.env` file read. */
interface LiloPlace {
  /** LILO_HOME, else the install folder the caller named (absolute). */
  home: string;
  /** LILO_ENV_FILE, else `<home>/.env`. */
  envFile: string;
  /** True when LILO_ENV_FILE named the file (then it must exist). */
  envFileNamed: boolean;
}

/**
 * Lilo's home and `.env` file: LILO_HOME (default `installDir`, the folder
 * Lilo is installed in; without one the current directory) and LILO_ENV_FILE
 * (default `<home>/.env`), so every command finds the same data from any directory.
 */
export function liloPlace(env: Env, installDir?: string): LiloPlace {
  const home = resolve(env.LILO_HOME?.trim() || installDir || ".");
  const named = env.LILO_ENV_FILE?.trim();
  return { home, envFile: named ? resolve(named) : join(home, ".env"), envFileNamed: !!named };
}

/**
 * Adds the variables of the `.env` file to `env` (a variable already set
 * wins, as with dotenv) and returns its path. A missing `<home>/.env` adds
 * nothing; a missing file that LILO_ENV_FILE names is a ConfigError (a typo
 * there would otherwise start Lilo without its keys).
 * Callers pass `process.env`, so libraries reading it see the file's values too.
 */
function readEnvFile(env: Env, installDir?: string): string {
  const { envFile: path, envFileNamed } = liloPlace(env, installDir);
  if (!existsSync(path)) {
    if (envFileNamed) throw new ConfigError(`LILO_ENV_FILE names ${path}, which does not exist`);
    return path;
  }
  let vars: Record<string, string>;
  try {
    vars = dotenv.parse(readFileSync(path));
  } catch (err) {
    throw new ConfigError(`${path} could not be read: ${sentence(err)}`, { cause: err });
  }
  for (const [k, v] of Object.entries(vars)) if (env[k] === undefined) env[k] = v;
  return path;
}

/**
 * The configuration of `npm start` and the `lilo` command: the `.env` file
 * read into `env`, then every variable of the core and of `sections` parsed
 * (ConfigError naming each wrong one). `installDir` is the default home:
 * LILO_HOME is set to it in `env` when unset, so relative paths and child
 * processes resolve against the same folder.
 */
export function loadConfigFromEnv<const S extends readonly AnySection[] = []>(
  env: Env,
  sections: S = [] as unknown as S,
  installDir?: string,
): LiloConfig & SectionValues<S> {
  const path = readEnvFile(env, installDir);
  if (installDir !== undefined || env.LILO_HOME?.trim()) env.LILO_HOME = liloPlace(env, installDir).home;
  const config = loadConfig(env, sections);
  return { ...config, run: { ...config.run, envFile: path } };
}
