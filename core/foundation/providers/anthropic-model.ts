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
    const body: Anthropic.MessageCreateParamsNonStreaming = {
      model: this.model,
      max_tokens: request.maxTokens ?? this.maxTokens,
      ...(request.system ? { system: systemBlocks(request) } : {}),
      messages: request.messages.map(anthropicMessage),
      ...anthropicTools(request),
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    };
    const options = {
      ...(request.signal ? { signal: request.signal } : {}),
      ...(request.maxRetries !== undefined ? { maxRetries: request.maxRetries } : {}),
    };
    let message: Anthropic.Message;
    try {
      message = request.onDelta ? await this.streamed(body, options, request.onDelta) : await this.client.messages.create(body, options);
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
      ...(message.usage ? { usage: anthropicUsage(message.usage) } : {}),
    };
  }

  /**
   * The same call as a stream of server-sent events: the SDK retries the
   * request until the stream opens, never once text has arrived; the final
   * message carries the usage and the tool calls as `create` would.
   */
  private async streamed(
    body: Anthropic.MessageCreateParamsNonStreaming,
    options: { signal?: AbortSignal; maxRetries?: number },
    onDelta: (text: string) => void,
  ): Promise<Anthropic.Message> {
    const stream = this.client.messages.stream(body, options);
    stream.on("text", (delta) => onDelta(delta));
    const message = await stream.finalMessage();
    // A connection that breaks off mid-answer ends the stream without a stop reason: that is a failure, not a short answer.
    if (message.stop_reason) return message;
    throw providerFailure({
      provider: this.provider,
      kind: options.signal?.aborted ? "aborted" : "connection",
      baseUrl: this.client.baseURL,
      detail: "the answer's stream broke off before its end",
      cause: message,
    });
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

/**
 * The system prompt: as plain text, or — when the request names a stable
 * prefix — as two blocks, the prefix marked `cache_control` so the next turn
 * reads it from Anthropic's prompt cache.
 */
export function systemBlocks(request: ChatRequest): string | Anthropic.TextBlockParam[] {
  const prefix = request.stablePrefix;
  if (!prefix || !request.system.startsWith(prefix)) return request.system;
  const rest = request.system.slice(prefix.length);
  return [{ type: "text", text: prefix, cache_control: { type: "ephemeral" } }, ...(rest.trim() ? [{ type: "text" as const, text: rest }] : [])];
}

/**
 * Anthropic counts cache reads and writes apart from `input_tokens`; the
 * ledger wants the whole prompt with the cached part inside it.
 */
function anthropicUsage(u: Anthropic.Usage): NonNullable<ChatResponse["usage"]> {
  const read = u.cache_read_input_tokens ?? 0;
  const written = u.cache_creation_input_tokens ?? 0;
  return {
    inputTokens: u.input_tokens + read + written,
    outputTokens: u.output_tokens,
    ...(u.cache_read_input_tokens != null ? { cachedInputTokens: read } : {}),
    ...(u.cache_creation_input_tokens != null ? { cacheWriteTokens: written } : {}),
  };
}
