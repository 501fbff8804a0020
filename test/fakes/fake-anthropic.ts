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
import { sendJson, startFakeServer, type RecordedRequest } from "./http-server.ts";

/** The part of a Messages API request body tests look at. */
export interface AnthropicRequestBody {
  model: string;
  max_tokens: number;
  system?: string;
  messages: Array<{ role: "user" | "assistant"; content: string }>;
  temperature?: number;
  [key: string]: unknown;
}

/** A scripted answer: plain text, or text with envelope fields overridden. */
export type AnthropicReply =
  | string
  | { text: string; model?: string; stopReason?: string; usage?: { input_tokens: number; output_tokens: number } };

/** Static answer, or a function of the parsed request body (may be async). */
export type AnthropicResponder =
  | AnthropicReply
  | ((body: AnthropicRequestBody, req: RecordedRequest) => AnthropicReply | Promise<AnthropicReply>);

export interface FakeAnthropic {
  /** Server root, e.g. http://127.0.0.1:41234 */
  url: string;
  /** What to pass as the SDK's `baseURL` (the SDK appends /v1/messages). */
  baseURL: string;
  /** Parsed bodies of every `POST /v1/messages`, in arrival order (failed, hung and dropped ones too). */
  requests: AnthropicRequestBody[];
  /** Every HTTP request with headers, as recorded by the underlying fake server. */
  http: RecordedRequest[];
  /** Queues one successful answer. */
  reply(answer: AnthropicResponder): FakeAnthropic;
  /** The answer whenever the queue is empty (default: the text "ok"). */
  replyAlways(answer: AnthropicResponder): FakeAnthropic;
  /** Queues `times` error responses with a realistic Anthropic error body. */
  fail(status: number, times?: number, headers?: Record<string, string>, message?: string): FakeAnthropic;
  /** Queues `times` requests that never get an answer (for timeouts). */
  hang(times?: number): FakeAnthropic;
  /** Queues `times` requests whose connection is destroyed without a response. */
  drop(times?: number): FakeAnthropic;
  close(): Promise<void>;
}

export interface FakeAnthropicOptions {
  /** When set, requests must carry this key (`x-api-key` or `Authorization: Bearer`); else 401. */
  apiKey?: string;
}

type Step =
  | { kind: "reply"; answer: AnthropicResponder }
  | { kind: "fail"; status: number; headers: Record<string, string>; message: string | undefined }
  | { kind: "hang" }
  | { kind: "drop" };

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

export async function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const queue: Step[] = [];
  const requests: AnthropicRequestBody[] = [];
  let fallback: AnthropicResponder = "ok";

  const server = await startFakeServer(async (req, res) => {
    if (req.method !== "POST" || req.path !== "/v1/messages") {
      return sendError(res, 404, `Not found: ${req.method} ${req.path}`);
    }
    if (options.apiKey !== undefined && keyOf(req) !== options.apiKey) {
      // Echoes the key it got, as some servers do, so tests can prove Lilo redacts it.
      return sendError(res, 401, `invalid x-api-key: ${keyOf(req) ?? "(none)"}`);
    }
    const body = req.body as AnthropicRequestBody;
    requests.push(body);
    const step = queue.shift() ?? { kind: "reply", answer: fallback };
    switch (step.kind) {
      case "hang":
        return; // never answer; close() tears the socket down
      case "drop":
        res.socket?.destroy();
        return;
      case "fail":
        return sendError(res, step.status, step.message, step.headers);
      case "reply": {
        const answer = typeof step.answer === "function" ? await step.answer(body, req) : step.answer;
        const r = typeof answer === "string" ? { text: answer } : answer;
        return sendJson(res, 200, {
          id: `msg_fake_${nextId++}`,
          type: "message",
          role: "assistant",
          content: [{ type: "text", text: r.text }],
          model: r.model ?? body.model,
          stop_reason: r.stopReason ?? "end_turn",
          stop_sequence: null,
          usage: r.usage ?? { input_tokens: roughTokens(JSON.stringify(body.messages)), output_tokens: roughTokens(r.text) },
        });
      }
    }
  });

  const fake: FakeAnthropic = {
    url: server.url,
    baseURL: server.url,
    requests,
    http: server.requests,
    reply(answer) {
      queue.push({ kind: "reply", answer });
      return fake;
    },
    replyAlways(answer) {
      fallback = answer;
      return fake;
    },
    fail(status, times = 1, headers = {}, message) {
      for (let i = 0; i < times; i++) queue.push({ kind: "fail", status, headers, message });
      return fake;
    },
    hang(times = 1) {
      for (let i = 0; i < times; i++) queue.push({ kind: "hang" });
      return fake;
    },
    drop(times = 1) {
      for (let i = 0; i < times; i++) queue.push({ kind: "drop" });
      return fake;
    },
    close: () => server.close(),
  };
  return fake;
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

function roughTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}
