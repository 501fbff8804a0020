import type { ChatModelFunctions, LlamaChat } from "node-llama-cpp";
import type { ChatModel, ChatRequest, ChatResponse, ToolCall } from "../../ports/chat-model.ts";
import type { Logger } from "../../ports/logger.ts";
import { ProviderError, describeError } from "../../errors.ts";
import { toChatHistory } from "./chat-history.ts";
import { toGrammarSchema, zodToGrammarSchema } from "./json-grammar-schema.ts";
import { boundedSchema } from "./json-budget.ts";
import type { Lane, LoadedModel, LocalEngine } from "./local-engine.ts";

interface LocalModelOptions {
  /** The name after `local:` as configured. */
  model: string;
  /** The model's file on disk, fetched first if need be (shared by every ChatModel of the same file). */
  file: () => Promise<string>;
  engine: LocalEngine;
  /** Output limit when a request names none (LILO_MODEL_MAX_TOKENS). */
  maxTokens: number;
  logger: Logger;
}

/** Chat templates whose models were trained to call functions in their own syntax (node-llama-cpp's wrapper names). */
const NATIVE_TOOL_TEMPLATES = new Set(["Llama 3.1", "Llama 3.2 lightweight", "Qwen", "Functionary", "Mistral", "DeepSeek", "Harmony", "Seed", "Gemma 4"]);

/** Calls that belong to the chat's conversation in the KV cache; the rest share the background lane. */
const CHAT_PURPOSES = new Set(["chat", "tool-round", "lookup-follow-up", "greeting"]);

/**
 * Lilo's own model: a GGUF file run in this process by llama.cpp (through
 * node-llama-cpp), no key, no server, nothing leaves the machine. The file is
 * fetched on first use (catalogue models); requests share one engine.
 * A request with a zod `schema` is generated under a grammar made from it, so
 * the model can only write JSON of that shape; `json` without a schema gets
 * the generic JSON grammar; everything else stays free text.
 */
export class LocalChatModel implements ChatModel {
  readonly provider = "local";
  readonly model: string;

  constructor(private readonly opts: LocalModelOptions) {
    this.model = opts.model;
  }

  async complete(req: ChatRequest): Promise<ChatResponse> {
    const path = await this.opts.file();
    const lane: Lane = laneOf(req);
    return this.opts.engine.run(path, (m, seed) => this.generate(m, m.chats[lane], req, seed), req.signal);
  }

  private async generate(m: LoadedModel, chat: LlamaChat, req: ChatRequest, seed: number | undefined): Promise<ChatResponse> {
    const functions = this.functionsFor(chat, req);
    const schema = !functions && req.schema ? zodToGrammarSchema(req.schema) : undefined;
    const grammar = functions ? undefined : schema ? await m.grammar(schema) : req.json ? await m.grammar("json") : undefined;
    const history = toChatHistory(req);
    const maxTokens = req.maxTokens ?? this.opts.maxTokens;
    const options = {
      maxTokens,
      temperature: req.temperature ?? 0.7,
      ...(seed !== undefined ? { seed } : {}),
      ...(req.signal ? { signal: req.signal } : {}),
    };
    const meter = chat.sequence.tokenMeter.getState();
    try {
      // The token callback hands on the text as the CPU writes it; a grammar-bound (JSON) answer is never shown in pieces.
      const streaming = req.onDelta && !grammar ? { onTextChunk: req.onDelta } : {};
      let res = await chat.generateResponse(history, { ...options, ...streaming, ...(functions ? { functions } : grammar ? { grammar } : {}) });
      const bounded = schema && res.metadata.stopReason === "maxTokens" ? boundedSchema(schema, maxTokens) : undefined;
      if (bounded) {
        // The JSON was cut off by the token limit (a model looping inside a string): once more, under bounds that must fit.
        this.opts.logger.warn("local model: JSON answer hit the token limit; asking again with bounded strings and lists", { model: this.model, maxTokens });
        res = await chat.generateResponse(history, { ...options, grammar: await m.grammar(bounded) });
      }
      const used = chat.sequence.tokenMeter.diff(meter);
      const toolCalls: ToolCall[] = (res.functionCalls ?? []).map((c) => ({ id: `call_${++callCount}`, name: c.functionName, input: c.params }));
      // The whole prompt is in the sequence now, followed by the answer; what was not evaluated again came from the KV cache.
      const inputTokens = Math.max(used.usedInputTokens, chat.sequence.nextTokenIndex - used.usedOutputTokens);
      return {
        text: res.response,
        model: this.model,
        stopReason: toolCalls.length ? "tool_use" : res.metadata.stopReason,
        usage: { inputTokens, outputTokens: used.usedOutputTokens, cachedInputTokens: Math.max(0, inputTokens - used.usedInputTokens) },
        ...(toolCalls.length ? { toolCalls } : {}),
      };
    } catch (err) {
      if (req.signal?.aborted) throw new ProviderError("The local model call was cancelled.", { provider: "local", retryable: false, cause: err });
      throw new ProviderError(`The local model failed: ${describeError(err)}`, { provider: "local", retryable: false, cause: err });
    }
  }

  /**
   * The request's tools as node-llama-cpp functions, when its chat template
   * knows function calling. Otherwise a 400 naming tools: the tool loop then
   * switches this model to markers (LILO_NATIVE_TOOLS=auto), as for an API
   * that refuses tools.
   */
  private functionsFor(chat: LlamaChat, req: ChatRequest): ChatModelFunctions | undefined {
    if (!req.tools?.length || req.toolChoice === "none") return undefined;
    const wrapper = chat.chatWrapper as { wrapperName: string; usingJinjaFunctionCallTemplate?: boolean };
    if (!NATIVE_TOOL_TEMPLATES.has(wrapper.wrapperName) && !wrapper.usingJinjaFunctionCallTemplate) {
      throw new ProviderError(`local:${this.model}: this model's chat template (${wrapper.wrapperName}) has no function calling; tools are not supported`, {
        provider: "local",
        status: 400,
        retryable: false,
      });
    }
    return Object.fromEntries(
      req.tools.map((t) => [
        t.name,
        { description: t.description, params: toGrammarSchema(t.parameters) as NonNullable<ChatModelFunctions[string]["params"]> },
      ]),
    );
  }
}

/** Numbers the tool calls of this process (node-llama-cpp gives them no id). */
let callCount = 0;

/** Which sequence a request runs on: the chat's (its prefix stays cached) or the background one. */
function laneOf(req: ChatRequest): Lane {
  if (req.purpose) return CHAT_PURPOSES.has(req.purpose) ? "chat" : "background";
  return req.schema || req.json ? "background" : "chat";
}
