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
import { sendJson, startFakeServer, type RecordedRequest } from "./http-server.ts";

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
      usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
    };

/** Static answer, or a function of the parsed request body (may be async). */
export type OpenAIResponder =
  | OpenAIReply
  | ((body: OpenAIRequestBody, req: RecordedRequest) => OpenAIReply | Promise<OpenAIReply>);

export interface FakeOpenAI {
  /** Server root, e.g. http://127.0.0.1:41234 */
  url: string;
  /** What to pass as the SDK's `baseURL`: `${url}/v1` (any prefix before /chat/completions works). */
  baseURL: string;
  /** Parsed bodies of every chat completion request, in arrival order (failed, hung and dropped ones too). */
  requests: OpenAIRequestBody[];
  /** Every HTTP request with headers, as recorded by the underlying fake server. */
  http: RecordedRequest[];
  /** Queues one successful answer. */
  reply(answer: OpenAIResponder): FakeOpenAI;
  /** The answer whenever the queue is empty (default: the text "ok"). */
  replyAlways(answer: OpenAIResponder): FakeOpenAI;
  /** Queues `times` error responses with a realistic OpenAI error body. */
  fail(status: number, times?: number, headers?: Record<string, string>, message?: string): FakeOpenAI;
  /** Queues `times` requests that never get an answer (for timeouts). */
  hang(times?: number): FakeOpenAI;
  /** Queues `times` requests whose connection is destroyed without a response. */
  drop(times?: number): FakeOpenAI;
  close(): Promise<void>;
}

export interface FakeOpenAIOptions {
  /** When set, requests must carry `Authorization: Bearer <apiKey>`; else 401. */
  apiKey?: string;
}

type Step =
  | { kind: "reply"; answer: OpenAIResponder }
  | { kind: "fail"; status: number; headers: Record<string, string>; message: string | undefined }
  | { kind: "hang" }
  | { kind: "drop" };

const ERROR_TYPES: Record<number, { type: string; code: string | null }> = {
  400: { type: "invalid_request_error", code: null },
  401: { type: "invalid_request_error", code: "invalid_api_key" },
  403: { type: "invalid_request_error", code: "unsupported_country_region_territory" },
  404: { type: "invalid_request_error", code: "model_not_found" },
  429: { type: "requests", code: "rate_limit_exceeded" },
};

let nextId = 1;

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const queue: Step[] = [];
  const requests: OpenAIRequestBody[] = [];
  let fallback: OpenAIResponder = "ok";

  const server = await startFakeServer(async (req, res) => {
    if (req.method !== "POST" || !req.path.endsWith("/chat/completions")) {
      return sendError(res, 404, `Unknown request URL: ${req.method} ${req.path}`);
    }
    const auth = req.headers.authorization;
    const key = auth?.startsWith("Bearer ") ? auth.slice("Bearer ".length) : undefined;
    if (options.apiKey !== undefined && key !== options.apiKey) {
      // Echoes the key it got, as some servers do, so tests can prove Lilo redacts it.
      return sendError(res, 401, `Incorrect API key provided: ${key ?? "(none)"}`);
    }
    const body = req.body as OpenAIRequestBody;
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
        const prompt = roughTokens(JSON.stringify(body.messages));
        const completion = roughTokens(r.text);
        return sendJson(res, 200, {
          id: `chatcmpl-fake${nextId++}`,
          object: "chat.completion",
          created: Math.floor(Date.now() / 1000),
          model: r.model ?? body.model,
          choices: [
            {
              index: 0,
              message: { role: "assistant", content: r.text, refusal: null },
              logprobs: null,
              finish_reason: r.finishReason ?? "stop",
            },
          ],
          usage: r.usage ?? { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
        });
      }
    }
  });

  const fake: FakeOpenAI = {
    url: server.url,
    baseURL: `${server.url}/v1`,
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

function sendError(res: ServerResponse, status: number, message?: string, headers: Record<string, string> = {}): void {
  const { type, code } = ERROR_TYPES[status] ?? { type: status >= 500 ? "server_error" : "invalid_request_error", code: null };
  sendJson(res, status, { error: { message: message ?? `fake ${type} (${status})`, type, param: null, code } }, headers);
}

function roughTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}
