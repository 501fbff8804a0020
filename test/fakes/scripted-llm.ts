import type { ServerResponse } from "node:http";
import { startFakeServer, type FakeServer, type RecordedRequest } from "./http-server.ts";

/** A scripted answer: a static one, or a function of the parsed request body (may be async). */
export type Responder<Body, Reply> = Reply | ((body: Body, req: RecordedRequest) => Reply | Promise<Reply>);

/** The scripting surface shared by the fake model servers. */
export interface ScriptedLlm<Body, Reply, Self> {
  /** Server root, e.g. http://127.0.0.1:41234 */
  url: string;
  /** Parsed bodies of every API call, in arrival order (failed, hung and dropped ones too). */
  requests: Body[];
  /** Every HTTP request with headers, as recorded by the underlying fake server. */
  http: RecordedRequest[];
  /** Queues one successful answer. */
  reply(answer: Responder<Body, Reply>): Self;
  /** The answer whenever the queue is empty (default: the text "ok"). */
  replyAlways(answer: Responder<Body, Reply>): Self;
  /** Queues `times` error responses with the vendor's error body. */
  fail(status: number, times?: number, headers?: Record<string, string>, message?: string): Self;
  /**
   * A model with a small context window: from now on every request whose
   * body is longer than `maxChars` characters is refused with 400, as real
   * servers refuse a prompt over the model's context length.
   */
  limitContext(maxChars: number): Self;
  /** Queues `times` requests that never get an answer (for timeouts). */
  hang(times?: number): Self;
  /** Queues `times` requests whose connection is destroyed without a response. */
  drop(times?: number): Self;
  close(): Promise<void>;
}

/** What makes one vendor's fake: its route, key check, error body and answer envelope. */
export interface VendorProtocol<Body, Reply> {
  isApiCall(req: RecordedRequest): boolean;
  /** The key the request carries, for the optional key check. */
  keyOf(req: RecordedRequest): string | undefined;
  /** Error text for a wrong key; echoes the key, as some servers do, so tests can prove Lilo redacts it. */
  wrongKeyMessage(key: string | undefined): string;
  sendError(res: ServerResponse, status: number, message?: string, headers?: Record<string, string>): void;
  /** Sends the answer; a streamed one (SSE) resolves when it is written. */
  sendReply(res: ServerResponse, body: Body, reply: Reply): void | Promise<void>;
  /** The body as tests read it (e.g. Anthropic's cache-marked system blocks as one string); default the body as sent. */
  normalize?(body: Body): Body;
  /** Answers a request that is no model call (e.g. `GET /models`); true when it did. */
  serveOther?(req: RecordedRequest, res: ServerResponse): boolean;
}

type Step<Body, Reply> =
  | { kind: "reply"; answer: Responder<Body, Reply> }
  | { kind: "fail"; status: number; headers: Record<string, string>; message: string | undefined }
  | { kind: "hang" }
  | { kind: "drop" };

/**
 * Starts a fake model server: every API call takes the next queued step
 * (reply, fail, hang, drop, in the order they were queued), else the
 * `replyAlways` answer. Builder methods return `self` for chaining.
 */
export async function startScriptedLlm<Body, Reply, Self>(
  protocol: VendorProtocol<Body, Reply>,
  opts: { apiKey?: string | undefined; defaultReply: Reply },
  wrap: (base: ScriptedLlm<Body, Reply, Self>, server: FakeServer) => Self,
): Promise<Self> {
  const queue: Step<Body, Reply>[] = [];
  const requests: Body[] = [];
  let fallback: Responder<Body, Reply> = opts.defaultReply;
  let maxContextChars = Infinity;
  const server = await startFakeServer(async (req, res) => {
    if (protocol.serveOther?.(req, res)) return;
    if (!protocol.isApiCall(req)) return protocol.sendError(res, 404, `Not found: ${req.method} ${req.path}`);
    const key = protocol.keyOf(req);
    if (opts.apiKey !== undefined && key !== opts.apiKey) return protocol.sendError(res, 401, protocol.wrongKeyMessage(key));
    const body = protocol.normalize ? protocol.normalize(req.body as Body) : (req.body as Body);
    requests.push(body);
    const size = JSON.stringify(body).length;
    if (size > maxContextChars)
      return protocol.sendError(res, 400, `This model's maximum context length is ${maxContextChars} characters; the request has ${size}.`);
    const step = queue.shift() ?? { kind: "reply", answer: fallback };
    switch (step.kind) {
      case "hang":
        return; // never answer; close() tears the socket down
      case "drop":
        res.socket?.destroy();
        return;
      case "fail":
        return protocol.sendError(res, step.status, step.message, step.headers);
      case "reply": {
        const answer =
          typeof step.answer === "function" ? await (step.answer as (b: Body, r: RecordedRequest) => Reply | Promise<Reply>)(body, req) : step.answer;
        return protocol.sendReply(res, body, answer);
      }
    }
  });
  const repeat = (times: number, step: Step<Body, Reply>) => {
    for (let i = 0; i < times; i++) queue.push(step);
  };
  let self: Self;
  const base: ScriptedLlm<Body, Reply, Self> = {
    url: server.url,
    requests,
    http: server.requests,
    reply: (answer) => (queue.push({ kind: "reply", answer }), self),
    replyAlways: (answer) => ((fallback = answer), self),
    fail: (status, times = 1, headers = {}, message) => (repeat(times, { kind: "fail", status, headers, message }), self),
    limitContext: (maxChars) => ((maxContextChars = maxChars), self),
    hang: (times = 1) => (repeat(times, { kind: "hang" }), self),
    drop: (times = 1) => (repeat(times, { kind: "drop" }), self),
    close: () => server.close(),
  };
  self = wrap(base, server);
  return self;
}

/** About four characters a token: good enough for usage fields. */
export function roughTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}
