import { z } from "zod";
import { settingMeta, type SettingMeta } from "./rules.ts";
import { rawConfigSchema } from "./schema.ts";
import type { AnySection } from "./section.ts";

/** One leaf of the configuration table: where it sits, its zod rule, and what the table says about it. */
export interface Leaf extends SettingMeta {
  /** Path in the raw and in the parsed configuration, e.g. ["diary", "time"]. */
  path: readonly string[];
  schema: z.ZodType;
}

/** Every leaf of `schema`, in table order. A leaf without its variable is a mistake in the table. */
function walk(schema: z.ZodType, path: readonly string[]): Leaf[] {
  if (schema instanceof z.ZodObject) return Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([k, v]) => walk(v, [...path, k]));
  const meta = settingMeta.get(schema);
  if (!meta) throw new Error(`configuration table: ${path.join(".")} has no variable`);
  return [{ ...meta, path, schema }];
}

/** Every variable the core reads, in table order (the sections of adapters come on top: `configTable`). */
export const LEAVES: readonly Leaf[] = walk(rawConfigSchema, []);

const byEnv = new Map(LEAVES.map((l) => [l.env, l]));

/** The core's leaf read from `env`, e.g. "LILO_DIARY_TIME". */
export function leafOf(env: string): Leaf | undefined {
  return byEnv.get(env);
}

/** The variables one configuration was read with: the core's table and the sections registered on top. */
export interface ConfigTable {
  /** Every leaf, the core's first, then each section's (their paths start with the section's key). */
  readonly leaves: readonly Leaf[];
  readonly sections: readonly AnySection[];
}

/** The core's table plus `sections`; a key or variable used twice is a mistake in the code, not in `.env`. */
export function configTable(sections: readonly AnySection[] = []): ConfigTable {
  const leaves = [...LEAVES, ...sections.flatMap((s) => walk(s.schema, [s.key]))];
  const keys = new Set(LEAVES.map((l) => l.path[0]));
  for (const s of sections) {
    if (keys.has(s.key)) throw new Error(`configuration table: the section "${s.key}" is there twice`);
    keys.add(s.key);
  }
  const envs = new Set<string>();
  for (const l of leaves) {
    if (envs.has(l.env)) throw new Error(`configuration table: ${l.env} is read twice`);
    envs.add(l.env);
  }
  return { leaves, sections };
}

/** The variable behind a path of the configuration (an issue's path), or the path itself. */
export function envAt(path: readonly PropertyKey[], leaves: readonly Leaf[] = LEAVES): string {
  const key = path.map(String).join(".");
  return leaves.find((l) => key === l.path.join(".") || key.startsWith(`${l.path.join(".")}.`))?.env ?? key;
}

/** The table's input: each variable put at its leaf's path (every section present, so defaults apply). */
export function nestEnv(env: Record<string, string | undefined>, leaves: readonly Leaf[] = LEAVES): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const l of leaves) {
    const v = env[l.env];
    if (v !== undefined) setAt(out, l.path, v);
    else if (l.path.length > 1) setAt(out, l.path.slice(0, -1), getAt(out, l.path.slice(0, -1)) ?? {});
  }
  return out;
}

/** The value at `path` of a nested object. */
export function getAt(obj: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((o, k) => (o && typeof o === "object" ? (o as Record<string, unknown>)[k] : undefined), obj);
}

/** Sets the value at `path` of a nested object, creating the objects on the way. */
export function setAt(obj: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let o = obj;
  for (const k of path.slice(0, -1)) o = (o[k] ??= {}) as Record<string, unknown>;
  o[path[path.length - 1]!] = value;
}

/** A configuration value as `lilo settings` and `.env.example` show it. */
function formatValue(v: unknown): string {
  if (v === undefined) return "none";
  if (Array.isArray(v)) return v.join(",");
  return String(v);
}

/** The leaf's value as `lilo settings` shows it, read from a parsed configuration. */
export function showLeaf(leaf: Leaf, config: object): string {
  return leaf.show ? leaf.show(config as never) : formatValue(getAt(config, leaf.path));
}

/** The default as written in `.env.example`: the rule's default ("" when there is none). */
export function defaultText(leaf: Leaf): string {
  const r = leaf.schema.safeParse(undefined);
  if (!r.success || r.data === undefined) return "";
  // A transformed default (quiet hours) is written as its input.
  return typeof r.data === "object" && !Array.isArray(r.data) ? "" : formatValue(r.data);
}

/**
 * Checks one value against its variable's rule in the table (the core's or a
 * section's): the message of the first problem, or undefined when it is
 * valid. The setup validates each answer with it as it is typed.
 */
export function checkValue(env: string, value: string, table: ConfigTable = configTable()): string | undefined {
  const leaf = table.leaves.find((l) => l.env === env);
  if (!leaf) return `unknown variable ${env}`;
  const r = leaf.schema.safeParse(value);
  return r.success ? undefined : (r.error.issues[0]?.message ?? "not valid");
}
