import type { ChatModel } from "../foundation/ports/chat-model.ts";
import type { Logger } from "../foundation/ports/logger.ts";
import type { LookupConfig, ToolMode } from "../foundation/config/lookups.ts";
import { ProviderError } from "../foundation/errors.ts";
import { modelLabel } from "../foundation/ports/chat-model.ts";

/**
 * Which chat models get native tools. Per provider (LILO_NATIVE_TOOLS):
 * "native", "markers", or "auto" — native until the API says the model has
 * no tools (a 400 naming tools or functions, as Ollama, llama.cpp and older
 * gateways answer); from then on that model uses markers.
 */
export class ToolCalling {
  private readonly withoutTools = new Set<string>();

  constructor(
    private readonly config: LookupConfig["tools"],
    private readonly logger: Logger,
  ) {}

  /** The configured mode for a provider. */
  mode(provider: string): ToolMode {
    return this.config.modes[provider] ?? this.config.default;
  }

  /** Does this model get tools in its request now? */
  isNative(model: Pick<ChatModel, "provider" | "model">): boolean {
    const mode = this.mode(model.provider);
    return mode === "native" || (mode === "auto" && !this.withoutTools.has(modelLabel(model)));
  }

  /** Bound of tool rounds in one turn. */
  get rounds(): number {
    return this.config.rounds;
  }

  /**
   * Whether `err` is the API refusing tools for an "auto" model; then the
   * model is switched to markers for the life of the process and true returned.
   */
  learnRefusal(model: Pick<ChatModel, "provider" | "model">, err: unknown): boolean {
    if (this.mode(model.provider) !== "auto" || !(err instanceof ProviderError) || err.status !== 400) return false;
    if (!/\b(tools?|tool_choice|functions?|function calling)\b/i.test(err.message)) return false;
    this.withoutTools.add(modelLabel(model));
    this.logger.warn("the model refuses native tools; using markers for it from now on", { model: modelLabel(model), error: err.message });
    return true;
  }
}
