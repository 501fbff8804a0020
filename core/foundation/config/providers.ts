import { ConfigError, ModelSwitchError } from "../errors.ts";
import { said } from "../error-texts.ts";
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
type OpenAICompatibleVendor = keyof typeof OPENAI_COMPATIBLE_VENDORS;

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

/**
 * The provider a bare model name belongs to when nothing else says: the
 * first with a key, or with a server of its own (a local OpenAI-compatible one).
 */
function fallbackProvider(providers: Record<string, ProviderSettings>): string | undefined {
  const own = (name: string) => name === "openai" || name === "ollama";
  return ["anthropic", "deepseek", "openai", "openrouter", "ollama"].find((n) => providers[n]?.apiKey || (own(n) && providers[n]?.baseUrl));
}

/**
 * The one rule for model names (LILO_CHAT_MODEL and the other roles, `/model`,
 * `lilo model`, `lilo settings set chat_model`): "provider:model"; a bare
 * provider name takes its default model; any other bare word is a model of
 * `current` (the provider in force). Refusals are ModelSwitchErrors with one
 * wording everywhere; whether the provider offers the model is checked
 * against its `/models` list by the registry.
 */
export function resolveModelSpec(value: string, providers: Record<string, ProviderSettings>, current: string | undefined): ModelSpec {
  const choices = Object.keys(providers);
  const { provider: named, name } = splitModelSpec(value);
  if (named === undefined && !name) throw new ModelSwitchError(said("modelNotNamed"), "no-model-named", undefined, choices);
  const bareProvider = named === undefined && providers[name] !== undefined;
  const provider = named ?? (bareProvider ? name : current);
  if (provider === undefined || !providers[provider]) {
    const shown = provider ?? name;
    throw new ModelSwitchError(said("unknownProvider", shown, choices.join(", ")), "unknown-provider", shown, choices);
  }
  const model = bareProvider ? providers[provider]!.defaultModel : name;
  if (!model) throw new ModelSwitchError(said("modelNotNamed", provider), "no-model-named", provider, choices);
  return { provider, model };
}

/** A role's model from `variable`, by the one rule; a refusal names the variable. */
export function modelSpecFrom(variable: string, value: string, providers: Record<string, ProviderSettings>): ModelSpec {
  let spec: ModelSpec;
  try {
    spec = resolveModelSpec(value, providers, fallbackProvider(providers));
  } catch (err) {
    if (!(err instanceof ModelSwitchError)) throw err;
    throw new ModelSwitchError(`${variable}: ${err.message}`, err.reason, err.provider, err.choices, { cause: err, ...(err.said ? { said: err.said } : {}) });
  }
  const localProblem = providers[spec.provider]?.kind === "local" ? localModelProblem(spec.model) : undefined;
  if (localProblem) throw new ConfigError(`${variable}: ${localProblem}`);
  return spec;
}

/** "provider:model", or a bare word read as the provider (the model left empty). */
export function withBareProvider(value: string): { provider: string; name: string } {
  const { provider, name } = splitModelSpec(value);
  return provider === undefined ? { provider: name, name: "" } : { provider, name };
}
