import { z } from "zod";
import { ConfigError } from "../errors.ts";
import { parseQuietHours } from "../util/quiet-hours.ts";

/**
 * The zod rules the configuration table (schema.ts) is written with, and the
 * registry that gives each leaf its variable, description and flags.
 */

/** The core's groups of `.env.example`, in file order (titles and intros: groups.ts); sections bring their own. */
export type Group =
  | "model-keys"
  | "models"
  | "persona"
  | "data"
  | "service"
  | "embeddings"
  | "local-model"
  | "memory"
  | "budgets"
  | "costs"
  | "recall"
  | "corrections"
  | "live"
  | "diary"
  | "reflection"
  | "greeting"
  | "analysis"
  | "lookup"
  | "media"
  | "terminal";

/** What the table says about one leaf besides its zod rule. */
export interface SettingMeta {
  /** The environment variable the value comes from. */
  env: string;
  /** One line for `.env.example` (what it does, the unit, an example). */
  doc: string;
  /** The `.env.example` group: one of the core's (`Group`) or one its section names (section.ts). */
  group: string;
  /** Shown in `.env.example` instead of the default (e.g. `sk-ant-...`). */
  example?: string;
  /** Only whether it is set is ever printed. */
  secret?: true;
  /** The key of `lilo settings set`: the value can change while Lilo runs. */
  live?: string;
  /** The key under which `lilo settings` lists this configuration value (read-only, `.env`). */
  listed?: string;
  /**
   * How `lilo settings` shows the value, read from the parsed configuration;
   * without it the value at the leaf's path is shown ("none" when unset).
   * The parameter declares the part of the configuration it reads.
   */
  show?: (config: never) => string;
}

/** Leaves of the configuration schema and what the table says about them. */
export const settingMeta = z.registry<SettingMeta>();

/** Registers `schema` as the leaf for `meta.env`. */
export function setting<S extends z.ZodType>(schema: S, meta: SettingMeta): S {
  settingMeta.add(schema as z.ZodType, meta);
  return schema;
}

export const num = (def: number) => z.coerce.number().finite().default(def);
export const int = (def: number) => z.coerce.number().int().nonnegative().default(def);
/** For values where 0 would break every call (a timeout, a token budget, a pause). */
export const positive = (def: number) => z.coerce.number().finite().positive().default(def);
export const positiveInt = (def: number) => z.coerce.number().int().positive().default(def);
export const bool = (def: boolean) =>
  z
    .enum(["true", "false", "1", "0", "yes", "no", "on", "off"])
    .default(def ? "true" : "false")
    .transform((v) => ["true", "1", "yes", "on"].includes(v));
export const opt = () => z.string().trim().min(1).optional();
export const url = () => z.url().optional();
export const score = (def: number) => z.coerce.number().min(-1).max(1).default(def);
/** A similarity score without a default: the embedder's own thresholds apply (core/memory/thresholds.ts). */
export const optionalScore = () => z.coerce.number().min(-1).max(1).optional();

const cronRules = new WeakSet<z.ZodType>();

/**
 * A cron pattern in the local time zone: 5 or 6 fields here; fully checked by
 * `cronProblem` (cron-pattern.ts) before a live setting is stored, and by the
 * scheduler when the job is scheduled.
 */
export const cronPattern = (def: string, fieldsMessage = "a cron pattern of 5 or 6 fields, e.g. 0 9 * * * (daily 09:00)") => {
  const rule = z
    .string()
    .trim()
    .refine((c) => [5, 6].includes(c.split(/\s+/).length), fieldsMessage)
    .default(def);
  cronRules.add(rule);
  return rule;
};

/** Is this leaf's rule a cron pattern? */
export const isCronRule = (schema: z.ZodType) => cronRules.has(schema);

/** "HH:MM-HH:MM" (or empty / "none": no quiet hours) → the window, with parseQuietHours's message. */
export const quietHours = (variable: string) =>
  z
    .string()
    .default("")
    .transform((raw, ctx) => {
      try {
        return parseQuietHours(variable, raw.trim() === "none" ? "" : raw);
      } catch (err) {
        if (!(err instanceof ConfigError)) throw err;
        // The table adds the variable's name in front of every message.
        ctx.issues.push({ code: "custom", input: raw, message: err.message.replace(`${variable}: `, "") });
        return z.NEVER;
      }
    });

/** Is this a time zone the runtime knows (IANA name)? */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
