import type { z } from "zod";
import { ConfigError } from "../errors.ts";

/**
 * A part of the configuration table that a layer outside the core brings
 * along: a chat adapter's variables (adapters/telegram/config.ts). Its leaves
 * are written with the same `setting(...)` helper as the core's (rules.ts),
 * so they get the same treatment: read from their variable with its rule,
 * named in every error, written to `.env.example`, listed by `lilo settings`
 * and, when marked `secret`, masked in every log line and error. The outer
 * layer (app.ts, the CLI) passes the sections to `loadConfig`; the core
 * never names them.
 */
export interface ConfigSection<K extends string = string, Raw = unknown, Out = unknown> {
  /** Where the section sits in the configuration, e.g. "telegram" → `config.telegram`. */
  readonly key: K;
  /** A `z.object` of leaves built with `setting(...)`. */
  readonly schema: z.ZodType<Raw>;
  /** Heading and notes of each `.env.example` group its leaves name, in file order (after the core's groups). */
  readonly groups: Readonly<Record<string, GroupText>>;
  /** The section's value in the configuration: the parsed leaves plus what is derived from them; `envOf` names a leaf's variable. */
  derive(raw: Raw, envOf: (path: readonly string[]) => string): Out;
}

/** The heading and notes of one group of `.env.example`. */
export interface GroupText {
  title: string;
  intro?: string[];
  outro?: string[];
}

/** Any section, whatever its key and value (`derive` is a method, so a specific section fits). */
export type AnySection = ConfigSection;

/** What a list of sections adds to the configuration: `{ telegram: …, matrix: … }`. */
export type SectionValues<S extends readonly AnySection[]> = { [X in S[number] as X["key"]]: ReturnType<X["derive"]> };

/** Defines a section; without `derive` its value is the parsed leaves. */
export function configSection<K extends string, S extends z.ZodType, Out = z.output<S>>(def: {
  key: K;
  schema: S;
  groups: Readonly<Record<string, GroupText>>;
  derive?: (raw: z.output<S>, envOf: (path: readonly string[]) => string) => Out;
}): ConfigSection<K, z.output<S>, Out> {
  return { key: def.key, schema: def.schema as z.ZodType<z.output<S>>, groups: def.groups, derive: def.derive ?? ((raw) => raw as unknown as Out) };
}

/**
 * The section's value in a configuration. Throws a ConfigError when the
 * configuration was loaded without it: its variables would be ignored silently.
 */
export function sectionOf<Out>(section: { readonly key: string; derive(...args: never[]): Out }, config: object): Out {
  const value = (config as Record<string, unknown>)[section.key];
  if (value === undefined) throw new ConfigError(`the configuration was loaded without its "${section.key}" section: pass it to loadConfig`);
  return value as Out;
}
