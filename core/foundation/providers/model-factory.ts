import type { ChatModel } from "../ports/chat-model.ts";
import { OPENAI_COMPATIBLE_VENDORS, type LiloConfig, type ModelSpec, type ProviderSettings } from "../config/config.ts";
import { ConfigError } from "../errors.ts";
import { said } from "../error-texts.ts";
import { lazyChatModel } from "./lazy.ts";
import type { LocalModels } from "./local/local-models.ts";

/**
 * The ChatModel for one role: the provider's client, loaded on first use,
 * with timeout, SDK retries and default max tokens from `config.modelCall`.
 * Throws a ConfigError naming the variable to set when a key is missing.
 * `local` models run on the engine of `local` (one per Lilo).
 */
export function createChatModel(spec: ModelSpec, config: Pick<LiloConfig, "providers" | "modelCall">, local?: LocalModels): ChatModel {
  const settings = config.providers[spec.provider];
  if (!settings) {
    throw new ConfigError(said("unknownProvider", spec.provider, Object.keys(config.providers).join(", ")));
  }
  if (settings.kind === "local") {
    if (!local) throw new ConfigError(said("localModelUnavailable", spec.model));
    return local.chatModel(spec.model);
  }
  const { timeoutMs, maxRetries, maxTokens } = config.modelCall;
  const common = { provider: spec.provider, model: spec.model, baseUrl: settings.baseUrl, timeoutMs, maxRetries, maxTokens };
  if (settings.kind === "anthropic") {
    if (!settings.apiKey) throw missingKey(spec.provider, keyVarOf(spec.provider));
    const options = { ...common, apiKey: settings.apiKey };
    return lazyChatModel(spec.provider, spec.model, async () => new (await import("./anthropic-model.ts")).AnthropicModel(options));
  }
  if (!settings.apiKey && !isLocalServer(spec.provider, settings)) {
    throw missingKey(spec.provider, keyVarOf(spec.provider), urlVarOf(spec.provider));
  }
  const options = { ...common, apiKey: settings.apiKey };
  return lazyChatModel(spec.provider, spec.model, async () => new (await import("./openai-model.ts")).OpenAICompatibleModel(options));
}

/**
 * A base URL the user chose (not the vendor's hosted default) and no key:
 * a local or self-hosted server, which needs none.
 */
function isLocalServer(provider: string, settings: ProviderSettings): boolean {
  if (!settings.baseUrl) return false;
  const vendor = vendorOf(provider);
  return settings.baseUrl !== vendor?.defaultUrl;
}

function vendorOf(provider: string): (typeof OPENAI_COMPATIBLE_VENDORS)[keyof typeof OPENAI_COMPATIBLE_VENDORS] | undefined {
  return Object.hasOwn(OPENAI_COMPATIBLE_VENDORS, provider) ? OPENAI_COMPATIBLE_VENDORS[provider as keyof typeof OPENAI_COMPATIBLE_VENDORS] : undefined;
}

/** The variable holding the provider's key: the vendor table's, else `<PROVIDER>_API_KEY` (ANTHROPIC_API_KEY). */
function keyVarOf(provider: string): string {
  return vendorOf(provider)?.keyVar ?? `${envName(provider)}_API_KEY`;
}

function urlVarOf(provider: string): string {
  return vendorOf(provider)?.urlVar ?? `${envName(provider)}_BASE_URL`;
}

function envName(provider: string): string {
  return provider.toUpperCase().replace(/[^A-Z0-9]+/g, "_");
}

/** The variable to set; for an OpenAI-compatible provider also the URL variable (a local server needs no key). */
function missingKey(provider: string, keyVar: string, urlVar?: string): ConfigError {
  return new ConfigError(urlVar ? said("missingApiKey", provider, keyVar, urlVar) : said("missingApiKey", provider, keyVar));
}
