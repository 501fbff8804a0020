/** Which provider and model answers for one role. */
export interface ModelSpec {
  provider: string;
  model: string;
}

/**
 * The one parser of "provider:model". Splits at the first colon, so model
 * names may contain colons (Ollama tags such as "llama3.1:8b"); without a
 * colon `provider` is undefined and the whole text is `name` (a caller
 * decides whether a bare word is a provider or a model).
 */
export function splitModelSpec(value: string): { provider: string | undefined; name: string } {
  const trimmed = value.trim();
  const idx = trimmed.indexOf(":");
  if (idx < 0) return { provider: undefined, name: trimmed };
  return { provider: trimmed.slice(0, idx), name: trimmed.slice(idx + 1).trim() };
}

/** "provider:model", as stored and shown. */
export function formatModelSpec(spec: ModelSpec): string {
  return `${spec.provider}:${spec.model}`;
}
