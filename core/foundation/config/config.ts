import { resolve } from "node:path";
import { ConfigError } from "../errors.ts";
import { said } from "../error-texts.ts";
import { configTable, envAt, nestEnv, type ConfigTable } from "./table.ts";
import type { AnySection, SectionValues } from "./section.ts";
import { rawConfigSchema, type RawConfig } from "./schema.ts";
import { defaultChatModel, modelSpecFrom, providerSettings } from "./providers.ts";
import type { ModelSpec } from "./model-spec.ts";
import { lookupConfig } from "./lookups.ts";
import { mediaConfig } from "./media.ts";

export type { LookupConfig, ToolMode } from "./lookups.ts";
export type { ModelSpec } from "./model-spec.ts";
export { OPENAI_COMPATIBLE_VENDORS, type ProviderSettings } from "./providers.ts";

/**
 * Lilo's whole configuration, parsed once from environment-style variables.
 * The table (config/schema.ts) holds every variable, default and description;
 * this file adds what is derived from several of them. Layers outside the
 * core add their own variables as sections (config/section.ts). The core never
 * reads process.env: callers pass the variables in (config/load.ts reads `.env`).
 */

export type Env = Record<string, string | undefined>;

export type ModelRole = "chat" | "extraction" | "judge" | "reflection" | "diary" | "analysis";
const MODEL_ROLES: readonly ModelRole[] = ["chat", "extraction", "judge", "reflection", "diary", "analysis"];

/**
 * The default embedding model per persona language: German needs a model
 * that understands German (≈ 118 MB quantised), English gets MiniLM (≈ 23 MB).
 * LILO_EMBEDDING_MODEL overrides. Thresholds per model: core/memory/thresholds.ts.
 */
export const DEFAULT_EMBEDDING_MODELS = {
  de: "Xenova/paraphrase-multilingual-MiniLM-L12-v2",
  en: "Xenova/all-MiniLM-L6-v2",
} as const;

/**
 * The parsed configuration: the table's output (each section as in
 * config/schema.ts) with the derived values of `complete`: providers and
 * model specs, the user-name map, paths defaulting into the data folder,
 * the vector backend, lookup and media details; and `table`, the variables it
 * was read with (the settings list and the secret redaction go through it).
 * The sections of adapters sit next to these (`loadConfig`'s result type).
 */
export type LiloConfig = ReturnType<typeof complete> & {
  /** Every variable this configuration was read with: the core's and the registered sections'. */
  readonly table: ConfigTable;
  /** The variables of the table that had a value (from `.env` or the environment); every other leaf holds its default. */
  readonly given: readonly string[];
};

/**
 * Parses configuration from environment-style variables: the core's table
 * and each of `sections` (an adapter's variables, at `config[section.key]`).
 * Throws a ConfigError that names every wrong variable.
 */
export function loadConfig<const S extends readonly AnySection[] = []>(env: Env = {}, sections: S = [] as unknown as S): LiloConfig & SectionValues<S> {
  const table = configTable(sections);
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ""));
  const input = nestEnv(cleaned, table.leaves);
  const core = rawConfigSchema.safeParse(input);
  const parts = sections.map((s) => ({ s, parsed: s.schema.safeParse(input[s.key]) }));
  const issues = [
    ...(core.success ? [] : core.error.issues),
    ...parts.flatMap(({ s, parsed }) => (parsed.success ? [] : parsed.error.issues.map((i) => ({ ...i, path: [s.key, ...i.path] })))),
  ];
  if (!core.success || issues.length > 0) {
    const lines = issues.map((i) => `  ${envAt(i.path, table.leaves)}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`, { cause: core.error ?? parts.find((p) => !p.parsed.success)?.parsed.error });
  }
  const given = table.leaves.filter((l) => cleaned[l.env] !== undefined).map((l) => l.env);
  const config: Record<string, unknown> = { ...complete(core.data), table, given };
  for (const { s, parsed } of parts) config[s.key] = s.derive(parsed.data, (path) => envAt([s.key, ...path], table.leaves));
  return config as LiloConfig & SectionValues<S>;
}

/** The values derived from several variables, and the cross-variable rules. */
function complete(raw: RawConfig) {
  if (raw.vector.backend === "qdrant" && !raw.vector.qdrantUrl) {
    throw new ConfigError("LILO_VECTOR_BACKEND=qdrant needs QDRANT_URL (e.g. http://127.0.0.1:6333)");
  }
  const providers = providerSettings(raw.providers);
  // Relative paths are read from Lilo's home, so `lilo` finds the same data from any directory (without a home: the current one).
  const inHome = (path: string) => (raw.home ? resolve(raw.home, path) : path);
  const dataDir = inHome(raw.dataDir);
  return {
    ...raw,
    dataDir,
    run: { ...raw.run, envFile: raw.run.envFile ?? inHome(".env") },
    persona: { ...raw.persona, userNames: parsePairs(envAt(["persona", "userNames"]), raw.persona.userNames) },
    dbPath: raw.dbPath ? inHome(raw.dbPath) : `${dataDir}/lilo.db`,
    dataKeyFile: raw.dataKeyFile ? inHome(raw.dataKeyFile) : undefined,
    models: modelSpecs(raw.models, providers),
    providers,
    embedding: {
      ...raw.embedding,
      model: raw.embedding.model ?? DEFAULT_EMBEDDING_MODELS[raw.persona.language],
      localDir: raw.embedding.localDir ? inHome(raw.embedding.localDir) : `${dataDir}/models`,
    },
    // The context holds the whole request Lilo builds (its budget) plus the answer.
    local: {
      ...raw.local,
      dir: raw.local.dir ?? `${dataDir}/models`,
      contextTokens: raw.local.contextTokens ?? raw.budget.requestTokens + raw.modelCall.maxTokens,
    },
    // The removed sqlite-vec backend is read as embedded (its tables are taken over on start); `removedBackend` lets start-up say so.
    vector: {
      ...raw.vector,
      backend: raw.vector.backend === "sqlite-vec" ? "embedded" : (raw.vector.backend ?? (raw.vector.qdrantUrl ? "qdrant" : "embedded")),
      removedBackend: raw.vector.backend === "sqlite-vec",
    },
    analysis: { ...raw.analysis, dir: raw.analysis.dir ? inHome(raw.analysis.dir) : `${dataDir}/analyses` },
    lookup: lookupConfig(raw.lookup),
    media: mediaConfig(raw.media, providers.openai?.apiKey),
  };
}

/** The chat model (its variable, else the first provider with a key) and the roles with their own setting. */
function modelSpecs(raw: RawConfig["models"], providers: ReturnType<typeof providerSettings>): Partial<Record<ModelRole, ModelSpec>> {
  const models: Partial<Record<ModelRole, ModelSpec>> = {};
  const chat = raw.chat ? modelSpecFrom(envAt(["models", "chat"]), raw.chat, providers) : defaultChatModel(providers);
  if (chat) models.chat = chat;
  // A role without its own setting is left out: it follows the chat model in force, also after a run-time switch.
  for (const role of MODEL_ROLES) {
    const value = raw[role];
    if (role !== "chat" && value) models[role] = modelSpecFrom(envAt(["models", role]), value, providers);
  }
  return models;
}

/** The message printed when no chat model can be reached. */
export const NO_MODEL_HELP = [
  "Lilo needs a language model. Set one of these in .env (see .env.example):",
  "  ANTHROPIC_API_KEY=sk-ant-...                 (Claude)",
  "  OPENAI_API_KEY=sk-...                        (OpenAI)",
  "  DEEPSEEK_API_KEY=sk-...                      (DeepSeek)",
  "  OPENAI_BASE_URL=http://127.0.0.1:11434/v1    (any OpenAI-compatible server, e.g. a local Ollama)",
  "    together with LILO_CHAT_MODEL=openai:<model name>, e.g. openai:llama3.1",
  "  LILO_CHAT_MODEL=local                        (no key, no server: Lilo's own model, downloaded once, 1–5 GB;",
  "    without internet copy its .gguf file into data/models and set LILO_LOCAL_OFFLINE=true)",
].join("\n");

/** The chat model spec, or a ConfigError telling the user what to set. */
export function requireModel(config: LiloConfig, role: ModelRole = "chat"): ModelSpec {
  const spec = config.models[role];
  if (!spec) throw new ConfigError(NO_MODEL_HELP, { said: said("noModel") });
  return spec;
}

/** "a=b,c=d" → { a: "b", c: "d" }. */
function parsePairs(variable: string, raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const idx = part.lastIndexOf("=");
    if (idx <= 0 || idx === part.length - 1) throw new ConfigError(`${variable}: "${part}" is not key=value`);
    out[part.slice(0, idx).trim()] = part.slice(idx + 1).trim();
  }
  return out;
}
