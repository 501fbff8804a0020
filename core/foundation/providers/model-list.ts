import { z } from "zod";
import type { ProviderSettings } from "../config/providers.ts";
import { ProviderError } from "../errors.ts";
import { said } from "../error-texts.ts";
import { sentence } from "../util/errno.ts";

/** The answer of `GET /models` (OpenAI, Anthropic, Ollama, llama.cpp, LM Studio, vLLM all use this shape). */
const modelListSchema = z.object({ data: z.array(z.object({ id: z.string().min(1) })) });

/** Where a provider lists its models. */
function modelsUrl(settings: ProviderSettings): string {
  if (settings.kind === "anthropic") return `${(settings.baseUrl ?? "https://api.anthropic.com").replace(/\/+$/, "")}/v1/models`;
  return `${(settings.baseUrl ?? "https://api.openai.com/v1").replace(/\/+$/, "")}/models`;
}

/**
 * The model ids a provider offers (`GET /models`), or undefined when it
 * offers no list (404). A refused key (401/403) and a server that cannot be
 * reached are ProviderErrors saying so, for the setup to ask again.
 */
export async function listModels(provider: string, settings: ProviderSettings, timeoutMs = 10_000): Promise<string[] | undefined> {
  const url = modelsUrl(settings);
  const headers: Record<string, string> =
    settings.kind === "anthropic"
      ? { "x-api-key": settings.apiKey ?? "", "anthropic-version": "2023-06-01" }
      : settings.apiKey
        ? { authorization: `Bearer ${settings.apiKey}` }
        : {};
  let res: Response;
  try {
    res = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    const cause = (err as { cause?: unknown }).cause ?? err;
    throw new ProviderError(`${provider} could not be reached at ${url}: ${sentence(cause)}`, {
      provider,
      retryable: true,
      cause: err,
      said: said("providerUnreachable", provider),
    });
  }
  if (res.status === 401 || res.status === 403)
    throw new ProviderError(said("providerKeyRefused", provider, res.status), { provider, status: res.status, retryable: false });
  if (!res.ok) return undefined;
  const parsed = modelListSchema.safeParse(await res.json().catch(() => undefined));
  return parsed.success ? parsed.data.data.map((m) => m.id) : undefined;
}
