import { ConfigError } from "../errors.ts";
import { splitModelSpec, type ModelSpec } from "./model-spec.ts";
import type { RawConfig } from "./schema.ts";
import { DEFAULT_LOCAL_MODEL, localModelProblem } from "../providers/local/catalogue.ts";

/** Providers reached through the OpenAI-compatible client; a new vendor is one entry here (and its two leaves in schema.ts). */
export const OPENAI_COMPATIBLE_VENDORS = {
  openai: { keyVar: "OPENAI_API_KEY", urlVar: "OPENAI_BASE_URL", defaultUrl: undefined, defaultModel: "gpt-4o-mini" },
  deepseek: { keyVar: "DEEPSEEK_API_KEY", urlVar: "DEEPSEEK_BASE_URL", defaultUrl: "https://api.deepseek.com", defaultModel: "deepseek-chat" },
  openrouter: { keyVar: "OPENROUTER_API_KEY", urlVar: "OPENROUTER_BASE_URL", defaultUrl: "https://openrouter.ai/api/v1", defaultModel: undefined },
  ollama: { keyVar: "OLLAMA_API_KEY", urlVar: "OLLAMA_BASE_URL", defaultUrl: undefined, defaultModel: undefined },
} as const;
export type OpenAICompatibleVendor = keyof typeof OPENAI_COMPATIBLE_VENDORS;

/** How to reach one provider. Keys live only in this object in memory, never in storage or logs. */
export interface ProviderSettings {
  /** "local": Lilo's own model, run in this process (no key, no URL). */
  kind: "anthropic" | "openai-compatible" | "local";
  apiKey: string | undefined;
  baseUrl: string | undefined;
  defaultModel: string | undefined;
}

/** Every provider with its kind, key, URL (the vendor's default unless set) and default model; `local` is Lilo's own model. */
export function providerSettings(raw: RawConfig["providers"]): Record<string, ProviderSettings> {
  const out: Record<string, ProviderSettings> = {
    anthropic: { kind: "anthropic", apiKey: raw.anthropic.apiKey, baseUrl: raw.anthropic.baseUrl, defaultModel: "claude-sonnet-4-5" },
  };
  for (const [name, v] of Object.entries(OPENAI_COMPATIBLE_VENDORS)) {
    const given = raw[name as OpenAICompatibleVendor];
    out[name] = { kind: "openai-compatible", apiKey: given.apiKey, baseUrl: given.baseUrl ?? v.defaultUrl, defaultModel: v.defaultModel };
  }
  out.local = { kind: "local", apiKey: undefined, baseUrl: undefined, defaultModel: DEFAULT_LOCAL_MODEL };
  return out;
}

/** The first provider with a key and a default model, in this order. */
export function defaultChatModel(providers: Record<string, ProviderSettings>): ModelSpec | undefined {
  for (const name of ["anthropic", "deepseek", "openai", "openrouter"]) {
    const p = providers[name];
    if (p?.apiKey && p.defaultModel) return { provider: name, model: p.defaultModel };
  }
  return undefined;
}

/** A role's "provider:model" from `variable`; a bare provider name takes its default model. */
export function modelSpecFrom(variable: string, value: string, providers: Record<string, ProviderSettings>): ModelSpec {
  const { provider, name } = withBareProvider(value);
  const settings = providers[provider];
  if (!settings) {
    throw new ConfigError(`${variable}: unknown provider "${provider}" (use one of: ${Object.keys(providers).join(", ")}), e.g. anthropic:claude-sonnet-4-5`);
  }
  const resolved = name || settings.defaultModel;
  if (!resolved) throw new ConfigError(`${variable}: name the model, e.g. ${provider}:llama3.1`);
  const localProblem = settings.kind === "local" ? localModelProblem(resolved) : undefined;
  if (localProblem) throw new ConfigError(`${variable}: ${localProblem}`);
  return { provider, model: resolved };
}

/** "provider:model", or a bare word read as the provider (the model left empty). */
export function withBareProvider(value: string): { provider: string; name: string } {
  const { provider, name } = splitModelSpec(value);
  return provider === undefined ? { provider: name, name: "" } : { provider, name };
}
