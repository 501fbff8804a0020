import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AnthropicModel } from "../../../core/foundation/providers/anthropic-model.ts";
import { OpenAICompatibleModel } from "../../../core/foundation/providers/openai-model.ts";
import { ProviderError } from "../../../core/foundation/errors.ts";
import type { ChatModel, ChatRequest } from "../../../core/foundation/ports/chat-model.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../../fakes/fake-openai.ts";
import { startFakeAnthropic, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";

const KEY = "sk-stream-test-0123456789";
const ANSWER = "Guten Morgen! Wie war der Zahnarzt? Ich hoffe, es tat nicht weh.";

interface Vendor {
  name: string;
  start(): Promise<FakeOpenAI | FakeAnthropic>;
  model(fake: FakeOpenAI | FakeAnthropic, maxRetries?: number): ChatModel;
}

const VENDORS: Vendor[] = [
  {
    name: "OpenAI-compatible",
    start: () => startFakeOpenAI({ apiKey: KEY }),
    model: (fake, maxRetries = 0) =>
      new OpenAICompatibleModel({
        provider: "deepseek",
        model: "deepseek-chat",
        apiKey: KEY,
        baseUrl: fake.baseURL,
        timeoutMs: 5_000,
        maxRetries,
        maxTokens: 100,
      }),
  },
  {
    name: "Anthropic",
    start: () => startFakeAnthropic({ apiKey: KEY }),
    model: (fake, maxRetries = 0) =>
      new AnthropicModel({ model: "claude-test", apiKey: KEY, baseUrl: fake.baseURL, timeoutMs: 5_000, maxRetries, maxTokens: 100 }),
  },
];

const request = (onDelta: (t: string) => void, over: Partial<ChatRequest> = {}): ChatRequest => ({
  system: "sys",
  messages: [{ role: "user", content: "Hallo" }],
  onDelta,
  ...over,
});

for (const vendor of VENDORS) {
  describe(`${vendor.name} streaming`, () => {
    let fake: FakeOpenAI | FakeAnthropic;
    beforeEach(async () => {
      fake = await vendor.start();
    });
    afterEach(async () => {
      await fake.close();
    });

    it("hands on the answer piece by piece and resolves with the whole text and the provider's usage", async () => {
      fake.reply({ text: ANSWER, usage: undefined });
      const pieces: string[] = [];
      const res = await vendor.model(fake).complete(request((t) => pieces.push(t)));
      expect(pieces.length).toBeGreaterThan(5);
      expect(pieces.join("")).toBe(ANSWER);
      expect(res.text).toBe(ANSWER);
      expect(res.usage?.outputTokens).toBe(Math.ceil(ANSWER.length / 4));
      const body = fake.requests[0] as Record<string, unknown>;
      expect(body.stream).toBe(true);
      if (vendor.name !== "Anthropic") expect(body.stream_options).toEqual({ include_usage: true });
    });

    it("returns the tool calls of a streamed answer, their arguments joined from fragments", async () => {
      fake.reply({ text: "Moment, ich schaue nach.", toolCalls: [{ id: "c1", name: "web_search", input: { query: "Wetter Wien morgen" } }] });
      const pieces: string[] = [];
      const res = await vendor.model(fake).complete(request((t) => pieces.push(t)));
      expect(pieces.join("")).toBe("Moment, ich schaue nach.");
      expect(res.toolCalls).toEqual([{ id: "c1", name: "web_search", input: { query: "Wetter Wien morgen" } }]);
    });

    it("retries a failure before the first piece and shows the answer once", async () => {
      fake.fail(503).reply(ANSWER);
      const pieces: string[] = [];
      const res = await vendor.model(fake, 2).complete(request((t) => pieces.push(t)));
      expect(fake.requests).toHaveLength(2);
      expect(pieces.join("")).toBe(ANSWER);
      expect(res.text).toBe(ANSWER);
    });

    it("does not retry once pieces have arrived: a stream that breaks off fails the call", async () => {
      fake.reply({ text: ANSWER, stream: { dropAfter: 3 } }).reply(ANSWER);
      const pieces: string[] = [];
      const err = await vendor
        .model(fake, 2)
        .complete(request((t) => pieces.push(t)))
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProviderError);
      expect(fake.requests).toHaveLength(1);
      expect(pieces.join("")).toBe(ANSWER.slice(0, 12));
    });

    it("stops the stream when the caller's signal aborts", async () => {
      fake.reply({ text: ANSWER, stream: { paceMs: 30 } });
      const stop = new AbortController();
      const pieces: string[] = [];
      const err = await vendor
        .model(fake)
        .complete(
          request(
            (t) => {
              pieces.push(t);
              if (pieces.length === 2) stop.abort();
            },
            { signal: stop.signal },
          ),
        )
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProviderError);
      expect((err as ProviderError).retryable).toBe(false);
      expect(pieces.length).toBeLessThan(4);
    });

    it("answers without streaming when the request has no onDelta", async () => {
      fake.reply(ANSWER);
      const res = await vendor.model(fake).complete({ system: "s", messages: [{ role: "user", content: "x" }] });
      expect(res.text).toBe(ANSWER);
      expect((fake.requests[0] as Record<string, unknown>).stream).toBeUndefined();
    });
  });
}
