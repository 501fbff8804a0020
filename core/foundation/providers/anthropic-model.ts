import Anthropic from "@anthropic-ai/sdk";
import type { ChatModel, ChatRequest, ChatResponse } from "../ports/chat-model.ts";
import { providerFailure, sdkFailure, type ProviderFailure } from "./sdk-errors.ts";
import { sdkRetryOptions } from "./sdk-retry.ts";
import { anthropicMessage, anthropicToolCalls, anthropicTools } from "./anthropic-tools.ts";

export interface AnthropicModelOptions {
  /** Provider name as configured; default "anthropic". */
  provider?: string;
  model: string;
  apiKey: string;
  /** Default https://api.anthropic.com (the environment is not read). */
  baseUrl?: string | undefined;
  /** Per HTTP attempt. */
  timeoutMs: number;
  /** Retries by the SDK (429, 5xx, timeouts, broken connections; see sdk-retry.ts); a request may ask for fewer. */
  maxRetries: number;
  /** max_tokens when the request names none. */
  maxTokens: number;
}

/**
 * Claude through `@anthropic-ai/sdk`, whose own retries (sdk-retry.ts) are
 * the only ones. `json: true` has no API switch here; the prompt asks for JSON.
 */
export class AnthropicModel implements ChatModel {
  readonly provider: string;
  readonly model: string;
  private readonly client: Anthropic;
  private readonly apiKey: string;
  private readonly timeoutMs: number;
  private readonly maxTokens: number;

  constructor(options: AnthropicModelOptions) {
    this.provider = options.provider ?? "anthropic";
    this.model = options.model;
    this.apiKey = options.apiKey;
    this.timeoutMs = options.timeoutMs;
    this.maxTokens = options.maxTokens;
    this.client = new Anthropic({
      apiKey: options.apiKey,
      // null, not undefined: undefined would make the SDK read ANTHROPIC_BASE_URL itself.
      baseURL: options.baseUrl ?? null,
      timeout: options.timeoutMs,
      ...sdkRetryOptions(options.maxRetries),
    });
  }

  async complete(request: ChatRequest): Promise<ChatResponse> {
    let message: Anthropic.Message;
    try {
      message = await this.client.messages.create(
        {
          model: this.model,
          max_tokens: request.maxTokens ?? this.maxTokens,
          ...(request.system ? { system: request.system } : {}),
          messages: request.messages.map(anthropicMessage),
          ...anthropicTools(request),
          ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        },
        {
          ...(request.signal ? { signal: request.signal } : {}),
          ...(request.maxRetries !== undefined ? { maxRetries: request.maxRetries } : {}),
        },
      );
    } catch (err) {
      throw this.toProviderError(err);
    }
    if (!Array.isArray(message?.content)) {
      throw providerFailure({ provider: this.provider, kind: "other", detail: "the answer has no content", cause: message });
    }
    const text = message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
    const toolCalls = anthropicToolCalls(message.content);
    return {
      text,
      model: message.model,
      ...(toolCalls.length ? { toolCalls } : {}),
      ...(message.stop_reason ? { stopReason: message.stop_reason } : {}),
      ...(message.usage ? { usage: { inputTokens: message.usage.input_tokens, outputTokens: message.usage.output_tokens } } : {}),
    };
  }

  private toProviderError(err: unknown): ProviderFailure {
    return sdkFailure(
      err,
      { provider: this.provider, baseUrl: this.client.baseURL, timeoutMs: this.timeoutMs, secrets: [this.apiKey] },
      { abort: Anthropic.APIUserAbortError, timeout: Anthropic.APIConnectionTimeoutError, connection: Anthropic.APIConnectionError, api: Anthropic.APIError },
      (e) => {
        const a = e as InstanceType<typeof Anthropic.APIError>;
        return a.apiMessage ? `${a.type ? `${a.type}: ` : ""}${a.apiMessage}` : a.message;
      },
    );
  }
}
