/**
 * What both ways of running the setup share: where it writes, the
 * configuration's own rules for single answers and for the whole, and the
 * defaults it suggests.
 */
import { checkValue, configTable } from "../../core/internal.ts";
import { loadConfig } from "../../core/index.ts";
import { ADAPTER_SECTIONS } from "../../adapters/config.ts";
import type { EnvLines, LocalModelOffer } from "./model-choices.ts";
import type { ModelFolders } from "./downloads.ts";

const table = configTable(ADAPTER_SECTIONS);

/** The configuration's rule for one variable: its problem, or undefined. */
export const check = (variable: string, value: string): string | undefined => checkValue(variable, value, table);

/** What the setup needs besides its answers. */
export interface SetupPlace {
  envFile: string;
  /** The environment it runs in: TELEGRAM_API_ROOT, a provider's base URL, the keys of `--yes`, LILO_LOCAL_MODEL_MIRROR. */
  env: Record<string, string | undefined>;
  /** Lilo's own downloadable models; empty: the choice is not offered. */
  catalogue?: readonly LocalModelOffer[];
  /** Where the embedding model and Lilo's own model are read from (the configuration's folders). */
  folders: ModelFolders;
  /** The database this setup's Lilo will use (an existing one is not given a key: it would no longer open). */
  dbPath?: string;
  /** How long to wait for the user's first Telegram message per try. */
  telegramWaitMs?: number;
  /** Where a download's progress bar goes when it is a terminal (a log line per tenth otherwise). */
  progress?: NodeJS.WriteStream;
}

/** The Lilo user id the answers are for (the terminal chat's). */
export const ownerId = (env: SetupPlace["env"]): string => env.LILO_TERMINAL_USER?.trim() || "owner";

/** The language the questions start in: German when the system speaks it, else English. */
export function systemLanguage(env: SetupPlace["env"]): "de" | "en" {
  return /^de/i.test(env.LC_ALL || env.LC_MESSAGES || env.LANG || "") ? "de" : "en";
}

/** The system's time zone (IANA), the default answer. */
export const systemTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/** The problem with a name, or undefined. */
export function checkName(owner: string, name: string): string | undefined {
  if (/[,=]/.test(name)) return `"," and "=" cannot be part of the name`;
  return check("LILO_USER_NAMES", `${owner}=${name}`) ?? (name.trim() ? undefined : "?");
}

/** The answers read as a whole configuration, as `npm start` will: a cross-variable problem stops before anything is written. */
export function checkWhole(lines: EnvLines): void {
  loadConfig(lines, ADAPTER_SECTIONS);
}
