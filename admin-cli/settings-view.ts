import { OPENAI_COMPATIBLE_VENDORS } from "../core/config-env.ts";
import { loadConfig, type LiloConfig } from "../core/config.ts";

/** One configuration value an admin cares about, and the variable it comes from. */
export interface EnvSetting {
  key: string;
  env: string;
  value: (c: LiloConfig) => string;
}

/** Values from the environment (.env) only: shown here, changed there, followed by a restart (live ones: core/settings/live-settings.ts). */
export const ENV_SETTINGS: readonly EnvSetting[] = [
  { key: "greeting.min_hours", env: "LILO_GREETING_MIN_HOURS", value: (c) => String(c.greeting.minHours) },
  { key: "conversation.pause_minutes", env: "LILO_CONVERSATION_PAUSE_MINUTES", value: (c) => String(c.memory.conversationPauseMinutes) },
  { key: "timezone", env: "LILO_TIMEZONE", value: (c) => c.timezone },
  { key: "embedding.model", env: "LILO_EMBEDDING_MODEL", value: (c) => c.embedding.model },
  { key: "vector.backend", env: "LILO_VECTOR_BACKEND", value: (c) => c.vector.backend },
  { key: "search.provider", env: "LILO_SEARCH_PROVIDER", value: (c) => c.lookup.search.provider ?? "none" },
  { key: "fetch_url.enabled", env: "LILO_FETCH_URL_ENABLED", value: (c) => String(c.lookup.fetch.enabled) },
  { key: "feeds.count", env: "LILO_FEEDS", value: (c) => String(c.lookup.feeds.urls.length) },
  { key: "feeds.cron", env: "LILO_FEEDS_CRON", value: (c) => c.lookup.feeds.cron },
  { key: "tools.native", env: "LILO_NATIVE_TOOLS", value: (c) => [c.lookup.tools.default, ...Object.entries(c.lookup.tools.modes).map(([p, m]) => `${p}=${m}`)].join(",") },
  { key: "tools.rounds", env: "LILO_TOOL_ROUNDS", value: (c) => String(c.lookup.tools.rounds) },
];

/** Secrets: only whether they are set is ever printed, never a character of the value. */
export function secretStates(c: LiloConfig): { env: string; set: boolean }[] {
  const keys = [{ env: "ANTHROPIC_API_KEY", set: !!c.providers.anthropic?.apiKey }];
  for (const [name, v] of Object.entries(OPENAI_COMPATIBLE_VENDORS)) keys.push({ env: v.keyVar, set: !!c.providers[name]?.apiKey });
  keys.push(
    { env: "QDRANT_API_KEY", set: !!c.vector.qdrantApiKey },
    { env: "TELEGRAM_BOT_TOKEN", set: !!c.telegram.token },
    { env: "MATRIX_ACCESS_TOKEN", set: !!c.matrix.accessToken },
    { env: "BRAVE_SEARCH_API_KEY", set: !!c.lookup.search.braveApiKey },
  );
  return keys;
}

/** "default" when the value equals the built-in default, else "set in env" (the value itself came from the variable). */
export function origin(s: EnvSetting, c: LiloConfig): string {
  defaults ??= loadConfig({});
  return s.value(c) === s.value(defaults) ? "default" : "set";
}

let defaults: LiloConfig | undefined;

/** Setting keys that look like they could hold a secret are never shown, whatever they hold. */
export const looksSecret = (key: string) => /key|token|secret|password/i.test(key);
