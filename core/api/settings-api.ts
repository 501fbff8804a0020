import type { LiloConfig } from "../foundation/config/config.ts";
import { formatModelSpec } from "../foundation/config/model-spec.ts";
import { showLeaf } from "../foundation/config/table.ts";
import { isSecretSet } from "../foundation/config/secrets.ts";
import { redactSecrets } from "../foundation/util/redact.ts";
import { ConfigError } from "../foundation/errors.ts";
import type { ModelRegistry } from "../foundation/models/registry.ts";
import { GLOBAL, type SettingsStore } from "../foundation/store/settings.ts";
import type { LiveSettings, SettingSource } from "../foundation/settings/live-settings.ts";

/** The run-time chat model switch (`lilo model`), listed first among the live settings. */
const CHAT_MODEL = "chat_model";

/** One row of `lilo settings`: a live setting, the chat model, configuration from `.env`, or a secret (only "set" / "not set"). */
export interface SettingRow {
  kind: "chat-model" | "live" | "config" | "secret";
  key: string;
  env: string;
  value: string;
  source: SettingSource;
  /** Can change while Lilo runs (`lilo settings set`). */
  live: boolean;
}

/**
 * A value other parts of Lilo keep in the settings table (program state). No leaf of the table describes
 * these, so values of secret-looking keys are hidden by the key's name, and every other value passes the
 * redaction (the configured secrets by value, and their shapes).
 */
interface StoredSetting {
  key: string;
  /** undefined: for everyone. */
  userId: string | undefined;
  value: string;
}

/** Everything `lilo settings` lists, in its sections. */
interface SettingsList {
  live: SettingRow[];
  state: StoredSetting[];
  config: SettingRow[];
  secrets: SettingRow[];
}

/** What `set` / `unset` did; an invalid value throws ConfigError and stores nothing. */
type SettingChange =
  | { kind: "changed"; row: SettingRow }
  /** Comes from the environment: set `env` in `.env` and restart. */
  | { kind: "env-only"; key: string; env: string }
  | { kind: "unknown"; key: string };

/** The settings use cases: list, look up one, change a live one or the chat model. */
export interface SettingsApi {
  list(): SettingsList;
  /** The row for a key or its variable; undefined when no setting has this name. */
  get(key: string): SettingRow | undefined;
  /** Sets a live setting (validated like `.env`) or switches the chat model ("default" goes back; a model is checked like `/model`). */
  set(key: string, value: string): Promise<SettingChange>;
  /** Goes back to `.env` (or the configured chat model). */
  unset(key: string): Promise<SettingChange>;
}

/** Setting keys that look like they could hold a secret are never shown, whatever they hold. */
const looksSecret = (key: string) => /key|token|secret|password/i.test(key);

/** What the settings use cases need. */
interface SettingsApiDeps {
  config: LiloConfig;
  live: LiveSettings;
  store: SettingsStore;
  models: ModelRegistry;
  now: () => string;
  /** Program state not to list: the record of a model no longer in use (`lilo status` leaves it out too). */
  outOfUse?: (key: string) => boolean;
}

/**
 * The settings use cases over the live settings, the chat model registry and the listed and secret leaves of
 * the table the configuration was read with (the core's and every registered section's).
 */
export function createSettingsApi({ config, live, store, models, now, outOfUse = () => false }: SettingsApiDeps): SettingsApi {
  const { leaves } = config.table;
  // A variable's source is whether it was given (in `.env` or the environment), not whether its value differs from the default.
  const sourceOf = (env: string): SettingSource => (config.given.includes(env) ? "env" : "default");
  const configRows = (): SettingRow[] =>
    leaves
      .filter((l) => l.listed !== undefined)
      .map((l) => ({ kind: "config", key: l.listed!, env: l.env, value: showLeaf(l, config), source: sourceOf(l.env), live: false }));
  const secretRows = (): SettingRow[] =>
    leaves
      .filter((l) => l.secret)
      .map((l) => {
        const set = isSecretSet(l, config);
        return { kind: "secret", key: l.env, env: l.env, value: set ? "set" : "not set", source: set ? "env" : "default", live: false };
      });
  const chatRow = (): SettingRow => ({
    kind: "chat-model",
    key: CHAT_MODEL,
    env: "LILO_CHAT_MODEL",
    value: chatSpec(models),
    source: store.get(CHAT_MODEL) ? "set" : sourceOf("LILO_CHAT_MODEL"),
    live: true,
  });
  const liveRows = (): SettingRow[] => live.list().map((r) => ({ kind: "live", ...r, live: true }));
  const findLive = (key: string) => liveRows().find((r) => r.key === key || r.env === key);

  const change = async (key: string, value: string | undefined): Promise<SettingChange> => {
    if (key === CHAT_MODEL) {
      if (value === undefined || value === "default") models.resetChat();
      else await models.switchChat(value, now());
      return { kind: "changed", row: chatRow() };
    }
    if (live.has(key)) {
      if (value === undefined) live.unset(key);
      else live.set(key, value);
      return { kind: "changed", row: findLive(key)! };
    }
    const env = configRows().find((r) => r.key === key || r.env === key)?.env ?? secretRows().find((r) => r.env === key)?.env;
    return env ? { kind: "env-only", key, env } : { kind: "unknown", key };
  };

  return {
    list() {
      const live = [chatRow(), ...liveRows()];
      const hidden = new Set(live.map((r) => r.key));
      const state = store
        .all()
        .filter((s) => !(s.userId === GLOBAL && (hidden.has(s.key) || outOfUse(s.key))))
        .map((s) => ({ key: s.key, userId: s.userId === GLOBAL ? undefined : s.userId, value: looksSecret(s.key) ? "(hidden)" : redactSecrets(s.value) }));
      return { live, state, config: configRows(), secrets: secretRows() };
    },
    get(key) {
      if (key === CHAT_MODEL) return chatRow();
      return findLive(key) ?? configRows().find((r) => r.key === key || r.env === key) ?? secretRows().find((r) => r.env === key);
    },
    set: (key, value) => change(key, value),
    unset: (key) => change(key, undefined),
  };
}

/** The chat model in force, or "none configured" (a state to show, not a failure). */
function chatSpec(models: ModelRegistry): string {
  try {
    return formatModelSpec(models.chatSpec());
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return "none configured";
  }
}
