import type { LiloConfig } from "../config/config.ts";
import { LEAVES, setAt, showLeaf, type Leaf } from "../config/table.ts";
import { isCronRule } from "../config/rules.ts";
import { cronProblem } from "../config/cron-pattern.ts";
import { ConfigError } from "../errors.ts";
import type { SettingsStore } from "../store/settings.ts";

/** Where a setting's current value comes from. */
export type SettingSource = "default" | "env" | "set";

/** A setting that can be changed while Lilo runs (`lilo settings set`), with `.env` as its default: a leaf of the table marked `live`. */
interface LiveKey {
  key: string;
  env: string;
  /** The value as shown and stored, read from the configuration. */
  read(c: LiloConfig): string;
  /** Validates `raw` with the env variable's rule and writes it into the configuration. */
  apply(c: LiloConfig, raw: string): void;
}

/** Parses `raw` with the table's rule for the variable, so a setting accepts exactly what `.env` accepts. */
function parseAs(leaf: Leaf, raw: string): unknown {
  const r = leaf.schema.safeParse(raw);
  if (!r.success) throw new ConfigError(`"${raw}" is not valid for ${leaf.env}: ${r.error.issues.map((i) => i.message).join("; ")}`, { cause: r.error });
  // A cron pattern is checked field by field, so the scheduler does not meet one it refuses.
  const problem = isCronRule(leaf.schema) ? cronProblem(String(r.data)) : undefined;
  if (problem) throw new ConfigError(`"${raw}" is not valid for ${leaf.env}: ${problem}`);
  return r.data;
}

const liveKey = (leaf: Leaf & { live: string }): LiveKey => ({
  key: leaf.live,
  env: leaf.env,
  read: (c) => showLeaf(leaf, c),
  apply: (c, raw) => setAt(c as unknown as Record<string, unknown>, leaf.path, parseAs(leaf, raw)),
});

/** The settings docs/spec.md §11 lists as changeable (the table's `live` leaves); everything else stays in `.env`. */
export const LIVE_KEYS: readonly LiveKey[] = LEAVES.filter((l): l is Leaf & { live: string } => l.live !== undefined).map(liveKey);

/**
 * A copy of `config` whose live sections are its own, so applying a setting never
 * changes a configuration object another Lilo (or a test) shares.
 */
export function ownLiveSections(config: LiloConfig): LiloConfig {
  const copy = { ...config } as Record<string, unknown>;
  for (const section of LIVE_SECTIONS) copy[section] = { ...(config[section] as object) };
  return copy as LiloConfig;
}

/** The sections of the configuration that hold live leaves (diary, reflection, greeting, push). */
const LIVE_SECTIONS = [...new Set(LEAVES.filter((l) => l.live !== undefined).map((l) => l.path[0] as keyof LiloConfig))];

/** One row of `lilo settings`. */
interface LiveSettingView {
  key: string;
  env: string;
  value: string;
  source: SettingSource;
}

/**
 * The one place where env configuration and stored overrides meet: it writes the effective
 * values into the shared `LiloConfig`, so every feature reading the configuration at run time
 * sees the live value. Another process (the CLI) changes the settings table; `refresh` picks
 * that up and tells the listeners (the scheduler reschedules).
 */
export class LiveSettings {
  private readonly base = new Map<string, string>();
  private readonly listeners = new Set<(keys: string[]) => void>();
  private readonly reported = new Set<string>();

  constructor(
    private readonly config: LiloConfig,
    private readonly store: SettingsStore,
    private readonly now: () => string,
    /** Told about a stored value that no longer passes its rule (kept out of the configuration, so `unset` stays reachable). */
    private readonly onInvalid: (key: string, err: ConfigError) => void,
  ) {
    for (const k of LIVE_KEYS) this.base.set(k.key, k.read(config));
    this.refresh();
  }

  /** The current value of `key`. */
  get(key: string): string {
    return this.def(key).read(this.config);
  }

  /** Validates and stores `value` for `key`, and applies it here; throws ConfigError and stores nothing when invalid. */
  set(key: string, value: string): string {
    const k = this.def(key);
    const probe = ownLiveSections(this.config);
    k.apply(probe, value.trim());
    const normal = k.read(probe);
    this.store.set(k.key, normal, this.now());
    this.refresh();
    return normal;
  }

  /** Removes the stored value: `key` goes back to `.env` or the default. */
  unset(key: string): string {
    const k = this.def(key);
    this.store.delete(k.key);
    this.refresh();
    return k.read(this.config);
  }

  /** Every live setting with its value and source. */
  list(): LiveSettingView[] {
    return LIVE_KEYS.map((k) => {
      const stored = this.store.get(k.key) !== undefined;
      // Where the value comes from, not whether it differs from the default: a `.env` line that repeats the default is still "env".
      const source: SettingSource = stored ? "set" : this.config.given.includes(k.env) ? "env" : "default";
      return { key: k.key, env: k.env, value: k.read(this.config), source };
    });
  }

  /** Calls `listener` with the keys whose value changed, after every change. Returns the unsubscribe. */
  onChange(listener: (keys: string[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Re-reads the stored overrides (cheap; polled by the running bot) and applies the changed ones. */
  refresh(): string[] {
    const changed: string[] = [];
    for (const k of LIVE_KEYS) {
      const want = this.store.get(k.key) ?? this.base.get(k.key)!;
      if (want === k.read(this.config)) continue;
      try {
        k.apply(this.config, want);
        changed.push(k.key);
      } catch (err) {
        if (!(err instanceof ConfigError)) throw err;
        // Told once per value, not at every poll.
        if (!this.reported.has(`${k.key}=${want}`)) this.onInvalid(k.key, err);
        this.reported.add(`${k.key}=${want}`);
      }
    }
    if (changed.length) for (const l of this.listeners) l(changed);
    return changed;
  }

  /** Is `key` a live setting? */
  has(key: string): boolean {
    return LIVE_KEYS.some((k) => k.key === key || k.env === key);
  }

  private def(key: string): LiveKey {
    const k = LIVE_KEYS.find((x) => x.key === key || x.env === key);
    if (!k) throw new ConfigError(`unknown live setting "${key}"; changeable: ${LIVE_KEYS.map((x) => x.key).join(", ")}`);
    return k;
  }
}
