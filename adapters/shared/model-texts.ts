import type { ModelSwitchError } from "../../core/index.ts";

/**
 * A refused /model switch in the persona's language. The provider's own
 * setup hint (which variable to set) stays as the core wrote it: it names
 * configuration, not conversation.
 */
export function modelSwitchRefused(language: "de" | "en", err: ModelSwitchError): string {
  const choices = err.choices.join(", ");
  if (language === "de") {
    switch (err.reason) {
      case "no-model-named":
        return `⚠️ Nenne ein Modell${err.provider ? ` nach „${err.provider}:“` : ""}, z. B. /model anthropic:claude-sonnet-4-5.`;
      case "unknown-provider":
        return `⚠️ Den Anbieter „${err.provider ?? ""}“ kenne ich nicht. Möglich sind: ${choices} (z. B. /model ollama:llama3.1:8b).`;
      case "unknown-model":
        return `⚠️ Dieses Modell bietet „${err.provider ?? ""}“ nicht an. Angeboten werden z. B.: ${err.choices.slice(0, 8).join(", ")}.`;
      case "provider-unusable":
        return `⚠️ Der Anbieter „${err.provider ?? ""}“ ist nicht eingerichtet, ich bleibe beim bisherigen Modell. Einrichtung: ${err.message}`;
    }
  }
  switch (err.reason) {
    case "no-model-named":
      return `⚠️ Name a model${err.provider ? ` after "${err.provider}:"` : ""}, e.g. /model anthropic:claude-sonnet-4-5.`;
    case "unknown-provider":
      return `⚠️ I don't know the provider "${err.provider ?? ""}". Possible: ${choices} (e.g. /model ollama:llama3.1:8b).`;
    case "unknown-model":
      return `⚠️ "${err.provider ?? ""}" does not offer this model. It offers e.g.: ${err.choices.slice(0, 8).join(", ")}.`;
    case "provider-unusable":
      return `⚠️ The provider "${err.provider ?? ""}" is not set up; I'm staying with the current model. Setup: ${err.message}`;
  }
}
