import { ConfigError } from "../errors.ts";
import { envAt, nestEnv } from "./table.ts";
import { rawConfigSchema, type RawConfig } from "./schema.ts";
import { defaultChatModel, modelSpecFrom, providerSettings } from "./providers.ts";
import type { ModelSpec } from "./model-spec.ts";
import { lookupConfig } from "./lookups.ts";
import { mediaConfig } from "./media.ts";

export type { LookupConfig, ToolMode } from "./lookups.ts";
export type { ModelSpec } from "./model-spec.ts";
export { OPENAI_COMPATIBLE_VENDORS, type OpenAICompatibleVendor, type ProviderSettings } from "./providers.ts";

/**
 * Lilo's whole configuration, parsed once from environment-style variables.
 * The table (config/schema.ts) holds every variable, default and description;
 * this file adds what is derived from several of them. The core never reads
 * process.env: callers pass the variables in (config/load.ts reads `.env`).
 */

export type Env = Record<string, string | undefined>;

export type ModelRole = "chat" | "extraction" | "judge" | "reflection" | "diary" | "analysis";
export const MODEL_ROLES: readonly ModelRole[] = ["chat", "extraction", "judge", "reflection", "diary", "analysis"];

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
 * model specs, user-name and allowlist maps, paths defaulting into the data
 * folder, the vector backend, lookup and media details.
 */
export type LiloConfig = ReturnType<typeof complete>;

/**
 * Parses configuration from environment-style variables. Throws a
 * ConfigError that names every wrong variable.
 */
export function loadConfig(env: Env = {}): LiloConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ""));
  const parsed = rawConfigSchema.safeParse(nestEnv(cleaned));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${envAt(i.path)}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`, { cause: parsed.error });
  }
  return complete(parsed.data);
}

/** The values derived from several variables, and the cross-variable rules. */
function complete(raw: RawConfig) {
  if (raw.vector.backend === "qdrant" && !raw.vector.qdrantUrl) {
    throw new ConfigError("LILO_VECTOR_BACKEND=qdrant needs QDRANT_URL (e.g. http://127.0.0.1:6333)");
  }
  const providers = providerSettings(raw.providers);
  const { dataDir } = raw;
  return {
    ...raw,
    persona: { ...raw.persona, userNames: parsePairs(envAt(["persona", "userNames"]), raw.persona.userNames) },
    dbPath: raw.dbPath ?? `${dataDir}/lilo.db`,
    models: modelSpecs(raw.models, providers),
    providers,
    embedding: { ...raw.embedding, model: raw.embedding.model ?? DEFAULT_EMBEDDING_MODELS[raw.persona.language], localDir: raw.embedding.localDir ?? `${dataDir}/models` },
    vector: { ...raw.vector, backend: raw.vector.backend ?? (raw.vector.qdrantUrl ? "qdrant" : "embedded") },
    analysis: { ...raw.analysis, dir: raw.analysis.dir ?? `${dataDir}/analyses` },
    telegram: { ...raw.telegram, allowedUsers: parseAllowList(envAt(["telegram", "allowedUsers"]), raw.telegram.allowedUsers, "telegram") },
    matrix: { ...raw.matrix, allowedUsers: parseAllowList(envAt(["matrix", "allowedUsers"]), raw.matrix.allowedUsers, "matrix") },
    lookup: lookupConfig(raw.lookup),
    media: mediaConfig(raw.media),
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
  "  DEEPSEEK_API_KEY=sk-...                      (DeepSeek)",
  "  OPENAI_BASE_URL=http://127.0.0.1:11434/v1    (any OpenAI-compatible server, e.g. a local Ollama)",
  "    together with LILO_CHAT_MODEL=openai:<model name>, e.g. openai:llama3.1",
].join("\n");

/** The chat model spec, or a ConfigError telling the user what to set. */
export function requireModel(config: LiloConfig, role: ModelRole = "chat"): ModelSpec {
  const spec = config.models[role];
  if (!spec) throw new ConfigError(NO_MODEL_HELP);
  return spec;
}

/** "a=b,c=d" → { a: "b", c: "d" }. */
function parsePairs(variable: string, raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of raw.split(",").map((s) => s.trim()).filter(Boolean)) {
    const idx = part.lastIndexOf("=");
    if (idx <= 0 || idx === part.length - 1) throw new ConfigError(`${variable}: "${part}" is not key=value`);
    out[part.slice(0, idx).trim()] = part.slice(idx + 1).trim();
  }
  return out;
}

/**
 * "123,456=anna" → platform id → Lilo user id. Without "=user" the user id is
 * "<platform>:<id>"; with it, several platforms can share one memory.
 */
function parseAllowList(variable: string, raw: string, platform: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of raw.split(",").map((s) => s.trim()).filter(Boolean)) {
    const idx = part.lastIndexOf("=");
    if (idx === 0 || idx === part.length - 1) throw new ConfigError(`${variable}: "${part}" is not id or id=user`);
    const id = idx > 0 ? part.slice(0, idx).trim() : part;
    out[id] = idx > 0 ? part.slice(idx + 1).trim() : `${platform}:${id}`;
  }
  return out;
}
