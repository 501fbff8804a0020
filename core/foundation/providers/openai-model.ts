import OpenAI from "openai";
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import { collectStream } from "./openai-stream.ts";
import type { ChatModel, ChatRequest, ChatResponse } from "../ports/chat-model.ts";
import { providerFailure, sdkFailure, type ProviderFailure } from "./sdk-errors.ts";
import { sdkRetryOptions } from "./sdk-retry.ts";
import { openaiMessages, openaiToolCalls, openaiTools } from "./openai-tools.ts";

/** Sent when no key is configured: local servers (Ollama, llama.cpp) ignore it, the SDK insists on one. */
export const PLACEHOLDER_API_KEY = "not-needed";

export interface OpenAICompatibleModelOptions {
  /** Provider name as configured, e.g. "openai", "deepseek", "ollama". */
  provider: string;
  model: string;
  /** Undefined for local servers that need none. */
  apiKey?: string | undefined;
  /** Default https://api.openai.com/v1 (the environment is not read). */
  baseUrl?: string | undefined;
  /** Per HTTP attempt. */
  timeoutMs: number;
  /** Retries by the SDK (429, 5xx, timeouts, broken connections; see sdk-retry.ts); a request may ask for fewer. */
  maxRetries: number;
  /** max_tokens when the request names none. */
  maxTokens: number;
}

/**
 * Any server that speaks OpenAI's Chat Completions API (OpenAI, DeepSeek,
 * OpenRouter, Ollama, llama.cpp server), through the `openai` SDK, whose own
 * retries (sdk-retry.ts) are the only ones.
 */
export class OpenAICompatibleModel implements ChatModel {
  readonly provider: string;
  readonly model: string;
  private readonly client: OpenAI;
  private readonly apiKey: string | undefined;
  private readonly timeoutMs: number;
  private readonly maxTokens: number;

  constructor(options: OpenAICompatibleModelOptions) {
    this.provider = options.provider;
    this.model = options.model;
    this.apiKey = options.apiKey;
    this.timeoutMs = options.timeoutMs;
    this.maxTokens = options.maxTokens;
    // Explicit nulls keep the SDK from reading OPENAI_* variables and sending them to another vendor.
    this.client = new OpenAI({
      apiKey: options.apiKey || PLACEHOLDER_API_KEY,
      baseURL: options.baseUrl ?? null,
      adminAPIKey: null,
      organization: null,
      project: null,
      timeout: options.timeoutMs,
      ...sdkRetryOptions(options.maxRetries),
    });
  }

  async complete(request: ChatRequest): Promise<ChatResponse> {
    const body: ChatCompletionCreateParamsNonStreaming = {
      model: this.model,
      messages: [...(request.system ? [{ role: "system" as const, content: request.system }] : []), ...request.messages.flatMap(openaiMessages)],
      max_tokens: request.maxTokens ?? this.maxTokens,
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(request.json ? { response_format: { type: "json_object" as const } } : {}),
      ...openaiTools(request),
    };
    const options = {
      ...(request.signal ? { signal: request.signal } : {}),
      ...(request.maxRetries !== undefined ? { maxRetries: request.maxRetries } : {}),
    };
    let completion: ChatCompletion;
    try {
      completion = request.onDelta ? await this.streamed(body, options, request) : await this.client.chat.completions.create(body, options);
    } catch (err) {
      throw this.toProviderError(err);
    }
    const choice = completion.choices?.[0];
    if (!choice) throw this.emptyAnswer(completion);
    const toolCalls = openaiToolCalls(choice.message);
    return {
      text: choice.message?.content ?? "",
      ...(toolCalls.length ? { toolCalls } : {}),
      model: completion.model || this.model,
      ...(choice.finish_reason ? { stopReason: choice.finish_reason } : {}),
      ...(completion.usage ? { usage: openaiUsage(completion.usage) } : {}),
    };
  }

  /**
   * The same call with `stream: true`: the SDK retries the request until the
   * stream opens, never once text has arrived. `include_usage` makes the last
   * chunk carry the usage, so the ledger records the provider's counts.
   */
  private async streamed(body: ChatCompletionCreateParamsNonStreaming, options: { signal?: AbortSignal; maxRetries?: number }, request: ChatRequest) {
    const chunks = await this.client.chat.completions.create({ ...body, stream: true, stream_options: { include_usage: true } }, options);
    const { completion, finished } = await collectStream(chunks, request.onDelta!);
    if (finished) return completion;
    const base = { provider: this.provider, baseUrl: this.client.baseURL, secrets: [this.apiKey], cause: completion };
    throw request.signal?.aborted
      ? providerFailure({ ...base, kind: "aborted" })
      : providerFailure({ ...base, kind: "connection", detail: "the answer's stream broke off before its end" });
  }

  /** Some gateways (OpenRouter) answer 200 with `{ error: { code, message } }` and no choices. */
  private emptyAnswer(completion: ChatCompletion): ProviderFailure {
    const error = (completion as unknown as { error?: { code?: unknown; message?: unknown } }).error;
    const detail = typeof error?.message === "string" ? error.message : "the answer has no choices";
    const base = { provider: this.provider, secrets: [this.apiKey], cause: completion, detail };
    return typeof error?.code === "number" ? providerFailure({ ...base, kind: "http", status: error.code }) : providerFailure({ ...base, kind: "other" });
  }

  private toProviderError(err: unknown): ProviderFailure {
    return sdkFailure(
      err,
      { provider: this.provider, baseUrl: this.client.baseURL, timeoutMs: this.timeoutMs, secrets: [this.apiKey] },
      { abort: OpenAI.APIUserAbortError, timeout: OpenAI.APIConnectionTimeoutError, connection: OpenAI.APIConnectionError, api: OpenAI.APIError },
    );
  }
}

/** The usage block; `prompt_tokens_details.cached_tokens` is the part of the prompt an automatic prefix cache served. */
function openaiUsage(u: NonNullable<ChatCompletion["usage"]>): NonNullable<ChatResponse["usage"]> {
  const cached = u.prompt_tokens_details?.cached_tokens;
  return { inputTokens: u.prompt_tokens, outputTokens: u.completion_tokens, ...(typeof cached === "number" ? { cachedInputTokens: cached } : {}) };
}
