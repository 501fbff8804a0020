import { existsSync, readFileSync } from "node:fs";
import { parse } from "dotenv";

/** What an existing `.env` already answers: a re-run of the setup offers these as its suggestions. */
export interface CurrentAnswers {
  language?: "de" | "en";
  /** The name Lilo calls the setup's user by. */
  name?: string;
  /** LILO_CHAT_MODEL as written, e.g. "openai:qwen2.5" or "local:qwen2.5-1.5b". */
  chatModel?: string;
  /** OPENAI_BASE_URL: an own server's address. */
  serverUrl?: string;
  timezone?: string;
}

/**
 * Reads the answers an earlier setup wrote. An unreadable or missing file
 * answers nothing: the setup then asks with its usual suggestions.
 */
export function currentAnswers(envFile: string, owner: string): CurrentAnswers {
  let vars: Record<string, string>;
  try {
    vars = existsSync(envFile) ? parse(readFileSync(envFile)) : {};
  } catch {
    return {}; // a broken .env is the setup's to replace, not to read
  }
  const name = (vars.LILO_USER_NAMES ?? "")
    .split(",")
    .map((pair) => pair.split("="))
    .find(([id]) => id?.trim() === owner)?.[1]
    ?.trim();
  const language = vars.LILO_LANGUAGE === "de" || vars.LILO_LANGUAGE === "en" ? vars.LILO_LANGUAGE : undefined;
  const pick = (v: string | undefined) => (v?.trim() ? v.trim() : undefined);
  return Object.fromEntries(
    Object.entries({ language, name, chatModel: pick(vars.LILO_CHAT_MODEL), serverUrl: pick(vars.OPENAI_BASE_URL), timezone: pick(vars.LILO_TIMEZONE) }).filter(
      ([, v]) => v !== undefined,
    ),
  ) as CurrentAnswers;
}
