/**
 * A fake Anthropic Messages API on 127.0.0.1 for tests with the real
 * `@anthropic-ai/sdk` client (`new Anthropic({ baseURL: fake.baseURL, apiKey })`).
 *
 * Scripting: every `POST /v1/messages` takes the next step from a queue
 * (`reply`, `fail`, `hang`, `drop`, in the order they were called); when the
 * queue is empty it answers with the `replyAlways` responder (default: "ok").
 *
 * ```ts
 * const fake = await startFakeAnthropic();
 * fake.fail(429, 1, { "retry-after": "2" }).reply("Hallo!");
 * fake.replyAlways((body) => (body.system?.includes("JSON") ? '{"facts":[]}' : "Hi"));
 * // ... run code against fake.baseURL ...
 * expect(fake.requests[0]?.messages.at(-1)?.content).toBe("Hi Lilo");
 * await fake.close();
 * ```
 */
import type { ServerResponse } from "node:http";
import { sendJson, type RecordedRequest } from "./http-server.ts";
import { piecesOf, sendSse, type StreamPlan } from "./sse.ts";
import { roughTokens, startScriptedLlm, type Responder, type ScriptedLlm } from "./scripted-llm.ts";

/** The part of a Messages API request body tests look at. */
export interface AnthropicRequestBody {
  model: string;
  max_tokens: number;
  /** The system prompt as one text (blocks joined; see `systemBlocks`). */
  system?: string;
  /** The system blocks as sent, when the client sent blocks (a prefix marked for prompt caching). */
  systemBlocks?: Array<{ type: "text"; text: string; cache_control?: { type: string } }>;
  messages: Array<{ role: "user" | "assistant"; content: string }>;
  temperature?: number;
  [key: string]: unknown;
}

/** A scripted answer: plain text, or text with envelope fields overridden. */
export type AnthropicReply =
  | string
  | {
      text: string;
      model?: string;
      stopReason?: string;
      /** Exact usage to report; null sends none (as some gateways do). */
      usage?: { input_tokens: number; output_tokens: number; cache_read_input_tokens?: number; cache_creation_input_tokens?: number } | null;
      /** Native tool calls, sent as `tool_use` blocks after the text (stop_reason "tool_use"). */
      toolCalls?: Array<{ id?: string; name: string; input: unknown }>;
      /** How the answer streams when the request asks for `stream: true`. */
      stream?: StreamPlan;
    };

/** Static answer, or a function of the parsed request body (may be async). */
export type AnthropicResponder = Responder<AnthropicRequestBody, AnthropicReply>;

export interface FakeAnthropic extends ScriptedLlm<AnthropicRequestBody, AnthropicReply, FakeAnthropic> {
  /** What to pass as the SDK's `baseURL` (the SDK appends /v1/messages). */
  baseURL: string;
}

export interface FakeAnthropicOptions {
  /** When set, requests must carry this key (`x-api-key` or `Authorization: Bearer`); else 401. */
  apiKey?: string;
}

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

let nextId = 1;

/** Starts the fake Messages API on 127.0.0.1. */
export function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  return startScriptedLlm<AnthropicRequestBody, AnthropicReply, FakeAnthropic>(
    {
      isApiCall: (req) => req.method === "POST" && req.path === "/v1/messages",
      keyOf,
      wrongKeyMessage: (key) => `invalid x-api-key: ${key ?? "(none)"}`,
      sendError,
      normalize: (body) => {
        const system = body.system as unknown;
        if (!Array.isArray(system)) return body;
        const blocks = system as NonNullable<AnthropicRequestBody["systemBlocks"]>;
        return { ...body, system: blocks.map((b) => b.text).join(""), systemBlocks: blocks };
      },
      sendReply: (res, body, answer) => {
        const r: Exclude<AnthropicReply, string> = typeof answer === "string" ? { text: answer } : answer;
        if ((body as { stream?: unknown }).stream === true) return streamReply(res, body, r);
        sendJson(res, 200, {
          id: `msg_fake_${nextId++}`,
          type: "message",
          role: "assistant",
          content: [
            ...(r.text || !r.toolCalls?.length ? [{ type: "text", text: r.text }] : []),
            ...(r.toolCalls ?? []).map((c) => ({ type: "tool_use", id: c.id ?? `toolu_fake_${nextId++}`, name: c.name, input: c.input })),
          ],
          model: r.model ?? body.model,
          stop_reason: r.stopReason ?? (r.toolCalls?.length ? "tool_use" : "end_turn"),
          stop_sequence: null,
          ...(r.usage === null ? {} : { usage: r.usage ?? { input_tokens: roughTokens(JSON.stringify(body.messages)), output_tokens: roughTokens(r.text) } }),
        });
      },
    },
    { apiKey: options.apiKey, defaultReply: "ok" },
    (base, server) => Object.assign(base, { baseURL: server.url }),
  );
}

function keyOf(req: RecordedRequest): string | undefined {
  const xKey = req.headers["x-api-key"];
  if (typeof xKey === "string") return xKey;
  const auth = req.headers.authorization;
  return auth?.startsWith("Bearer ") ? auth.slice("Bearer ".length) : undefined;
}

function sendError(res: ServerResponse, status: number, message?: string, headers: Record<string, string> = {}): void {
  const type = ERROR_TYPES[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
  const requestId = `req_fake_${nextId++}`;
  sendJson(
    res,
    status,
    { type: "error", error: { type, message: message ?? `fake ${type} (${status})` }, request_id: requestId },
    { "request-id": requestId, ...headers },
  );
}

/**
 * The answer as Anthropic's message events: message_start, the text block's
 * deltas piece by piece, each tool_use block with its JSON in two
 * fragments, message_delta with the stop reason and output tokens, message_stop.
 */
function streamReply(res: ServerResponse, body: AnthropicRequestBody, r: Exclude<AnthropicReply, string>): Promise<void> {
  const usage = r.usage ?? { input_tokens: roughTokens(JSON.stringify(body.messages)), output_tokens: roughTokens(r.text) };
  const ev = (event: string, data: object) => ({ event, data: { type: event, ...data } });
  const pieces = r.stream?.pieces ?? piecesOf(r.text);
  const withText = Boolean(r.text) || !r.toolCalls?.length;
  const tools = (r.toolCalls ?? []).flatMap((c, i) => {
    const index = (withText ? 1 : 0) + i;
    const json = JSON.stringify(c.input);
    const half = Math.ceil(json.length / 2);
    return [
      ev("content_block_start", { index, content_block: { type: "tool_use", id: c.id ?? `toolu_fake_${nextId++}`, name: c.name, input: {} } }),
      ev("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: json.slice(0, half) } }),
      ev("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: json.slice(half) } }),
      ev("content_block_stop", { index }),
    ];
  });
  const message = {
    id: `msg_fake_${nextId++}`,
    type: "message",
    role: "assistant",
    content: [],
    model: r.model ?? body.model,
    stop_reason: null,
    stop_sequence: null,
  };
  return sendSse(
    res,
    [
      ev("message_start", { message: { ...message, usage: { ...usage, output_tokens: 1 } } }),
      ...(withText ? [ev("content_block_start", { index: 0, content_block: { type: "text", text: "" } })] : []),
    ],
    withText ? pieces.map((p) => [ev("content_block_delta", { index: 0, delta: { type: "text_delta", text: p } })]) : [],
    [
      ...(withText ? [ev("content_block_stop", { index: 0 })] : []),
      ...tools,
      ev("message_delta", {
        delta: { stop_reason: r.stopReason ?? (r.toolCalls?.length ? "tool_use" : "end_turn"), stop_sequence: null },
        usage: { output_tokens: usage.output_tokens },
      }),
      ev("message_stop", {}),
    ],
    r.stream,
  );
}
