/**
 * A fake OpenAI-compatible Chat Completions API on 127.0.0.1 (what OpenAI,
 * DeepSeek, OpenRouter, Ollama and llama.cpp server speak) for tests with the
 * real `openai` client (`new OpenAI({ baseURL: fake.baseURL, apiKey })`).
 *
 * Scripting: every `POST …/chat/completions` takes the next step from a queue
 * (`reply`, `fail`, `hang`, `drop`, in the order they were called); when the
 * queue is empty it answers with the `replyAlways` responder (default: "ok").
 *
 * ```ts
 * const fake = await startFakeOpenAI();
 * fake.fail(500, 2).reply("Hallo!");
 * fake.replyAlways((body) => (body.response_format ? '{"facts":[]}' : "Hi"));
 * // ... run code against fake.baseURL ...
 * expect(fake.requests[0]?.messages[0]).toEqual({ role: "system", content: "…" });
 * await fake.close();
 * ```
 */
import type { ServerResponse } from "node:http";
import { sendJson } from "./http-server.ts";
import { piecesOf, sendSse, type StreamPlan } from "./sse.ts";
import { roughTokens, startScriptedLlm, type Responder, type ScriptedLlm } from "./scripted-llm.ts";

/** The part of a Chat Completions request body tests look at. */
export interface OpenAIRequestBody {
  model: string;
  messages: Array<{ role: "system" | "user" | "assistant"; content: string }>;
  max_tokens?: number;
  temperature?: number;
  response_format?: { type: string };
  [key: string]: unknown;
}

/** A scripted answer: plain text, or text with envelope fields overridden. */
export type OpenAIReply =
  | string
  | {
      text: string;
      model?: string;
      finishReason?: string;
      /** Exact usage to report; null sends none (as some local servers do). */
      usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number; prompt_tokens_details?: { cached_tokens: number } } | null;
      /** Native function calls, sent as `tool_calls` (finish_reason "tool_calls"); `arguments` is JSON-encoded unless a string. */
      toolCalls?: Array<{ id?: string; name: string; input: unknown }>;
      /** How the answer streams when the request asks for `stream: true`. */
      stream?: StreamPlan;
    };

/** Static answer, or a function of the parsed request body (may be async). */
export type OpenAIResponder = Responder<OpenAIRequestBody, OpenAIReply>;

export interface FakeOpenAI extends ScriptedLlm<OpenAIRequestBody, OpenAIReply, FakeOpenAI> {
  /** What to pass as the SDK's `baseURL`: `${url}/v1` (any prefix before /chat/completions works). */
  baseURL: string;
}

export interface FakeOpenAIOptions {
  /** When set, requests must carry `Authorization: Bearer <apiKey>`; else 401. */
  apiKey?: string;
  /** When set, `GET …/models` lists these model ids, as OpenAI and local servers (Ollama, llama.cpp) do; else it is 404. */
  models?: readonly string[];
  /** Default wait before each streamed piece, in ms (a reply's own `stream.paceMs` wins). */
  streamPaceMs?: number;
}

const ERROR_TYPES: Record<number, { type: string; code: string | null }> = {
  400: { type: "invalid_request_error", code: null },
  401: { type: "invalid_request_error", code: "invalid_api_key" },
  403: { type: "invalid_request_error", code: "unsupported_country_region_territory" },
  404: { type: "invalid_request_error", code: "model_not_found" },
  429: { type: "requests", code: "rate_limit_exceeded" },
};

let nextId = 1;

/** Starts the fake Chat Completions API on 127.0.0.1. */
export function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  return startScriptedLlm<OpenAIRequestBody, OpenAIReply, FakeOpenAI>(
    {
      isApiCall: (req) => req.method === "POST" && req.path.endsWith("/chat/completions"),
      keyOf: (req) => {
        const auth = req.headers.authorization;
        return auth?.startsWith("Bearer ") ? auth.slice("Bearer ".length) : undefined;
      },
      wrongKeyMessage: (key) => `Incorrect API key provided: ${key ?? "(none)"}`,
      sendError,
      serveOther: (req, res) => {
        if (!options.models || req.method !== "GET" || !req.path.endsWith("/models")) return false;
        const auth = req.headers.authorization;
        if (options.apiKey !== undefined && auth !== `Bearer ${options.apiKey}`) sendError(res, 401, "Incorrect API key provided");
        else sendJson(res, 200, { object: "list", data: options.models.map((id) => ({ id, object: "model", created: 0, owned_by: "fake" })) });
        return true;
      },
      sendReply: (res, body, answer) => {
        const r: Exclude<OpenAIReply, string> = typeof answer === "string" ? { text: answer } : answer;
        const toolCalls = (r.toolCalls ?? []).map((c) => ({
          id: c.id ?? `call_fake${nextId++}`,
          type: "function",
          function: { name: c.name, arguments: typeof c.input === "string" ? c.input : JSON.stringify(c.input) },
        }));
        const prompt = roughTokens(JSON.stringify(body.messages));
        const completion = roughTokens(r.text);
        const usage = r.usage === null ? undefined : (r.usage ?? { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion });
        if (body.stream === true) return streamReply(res, body, r, toolCalls, usage, options.streamPaceMs);
        sendJson(res, 200, {
          id: `chatcmpl-fake${nextId++}`,
          object: "chat.completion",
          created: Math.floor(Date.now() / 1000),
          model: r.model ?? body.model,
          choices: [
            {
              index: 0,
              message: {
                role: "assistant",
                content: toolCalls.length && !r.text ? null : r.text,
                refusal: null,
                ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
              },
              logprobs: null,
              finish_reason: r.finishReason ?? (toolCalls.length ? "tool_calls" : "stop"),
            },
          ],
          ...(r.usage === null ? {} : { usage: r.usage ?? { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } }),
        });
      },
    },
    { apiKey: options.apiKey, defaultReply: "ok" },
    (base, server) => Object.assign(base, { baseURL: `${server.url}/v1` }),
  );
}

function sendError(res: ServerResponse, status: number, message?: string, headers: Record<string, string> = {}): void {
  const { type, code } = ERROR_TYPES[status] ?? { type: status >= 500 ? "server_error" : "invalid_request_error", code: null };
  sendJson(res, status, { error: { message: message ?? `fake ${type} (${status})`, type, param: null, code } }, headers);
}

/**
 * The answer as Chat Completions chunks: the text in pieces, the tool calls
 * (name first, arguments in two fragments, as servers send them), the
 * finish reason, then the usage in a chunk of its own when the request asked
 * for it with `stream_options.include_usage`, and `[DONE]`.
 */
function streamReply(
  res: ServerResponse,
  body: OpenAIRequestBody,
  r: Exclude<OpenAIReply, string>,
  toolCalls: Array<{ id: string; function: { name: string; arguments: string } }>,
  usage: object | undefined,
  defaultPaceMs: number | undefined,
): Promise<void> {
  const id = `chatcmpl-fake${nextId++}`;
  const chunk = (choice: object | undefined, extra: object = {}) => ({
    data: {
      id,
      object: "chat.completion.chunk",
      created: Math.floor(Date.now() / 1000),
      model: r.model ?? body.model,
      choices: choice ? [{ index: 0, logprobs: null, finish_reason: null, ...choice }] : [],
      ...extra,
    },
  });
  const pieces = r.stream?.pieces ?? piecesOf(r.text);
  const calls = toolCalls.flatMap((c, index) => {
    const half = Math.ceil(c.function.arguments.length / 2);
    return [
      chunk({
        delta: { tool_calls: [{ index, id: c.id, type: "function", function: { name: c.function.name, arguments: c.function.arguments.slice(0, half) } }] },
      }),
      chunk({ delta: { tool_calls: [{ index, function: { arguments: c.function.arguments.slice(half) } }] } }),
    ];
  });
  const wantsUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
  return sendSse(
    res,
    [chunk({ delta: { role: "assistant", content: "" } })],
    pieces.map((p) => [chunk({ delta: { content: p } })]),
    [
      ...calls,
      chunk({ delta: {}, finish_reason: r.finishReason ?? (toolCalls.length ? "tool_calls" : "stop") }),
      ...(wantsUsage && usage ? [chunk(undefined, { usage })] : []),
      { data: "[DONE]" },
    ],
    { ...(defaultPaceMs !== undefined ? { paceMs: defaultPaceMs } : {}), ...r.stream },
  );
}
