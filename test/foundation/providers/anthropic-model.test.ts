import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AnthropicModel, type AnthropicModelOptions } from "../../../core/foundation/providers/anthropic-model.ts";
import { ProviderError } from "../../../core/foundation/errors.ts";
import type { ProviderFailure } from "../../../core/foundation/providers/sdk-errors.ts";
import { startFakeAnthropic, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";

const KEY = "sk-ant-test-SECRET-0123456789";

let fake: FakeAnthropic;
beforeEach(async () => {
  fake = await startFakeAnthropic({ apiKey: KEY });
});
afterEach(async () => {
  await fake.close();
});

function model(over: Partial<AnthropicModelOptions> = {}): AnthropicModel {
  return new AnthropicModel({ model: "claude-test", apiKey: KEY, baseUrl: fake.baseURL, timeoutMs: 5_000, maxRetries: 0, maxTokens: 321, ...over });
}

async function failure(p: Promise<unknown>): Promise<ProviderFailure> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  const pe = err as ProviderFailure;
  expect(pe.message).not.toContain(KEY);
  expect(String(pe)).not.toContain(KEY);
  return pe;
}

const hello = { system: "You are Lilo.", messages: [{ role: "user" as const, content: "Hallo!" }] };

describe("AnthropicModel", () => {
  it("maps a ChatRequest to /v1/messages and its answer back", async () => {
    fake.reply({ text: "Hallo zurück", model: "claude-test-20260101", usage: { input_tokens: 11, output_tokens: 3 } });
    const m = model();
    const res = await m.complete({
      ...hello,
      messages: [
        { role: "user", content: "Hi" },
        { role: "assistant", content: "Hey" },
        { role: "user", content: "Hallo!" },
      ],
      temperature: 0.2,
    });
    expect(res).toEqual({ text: "Hallo zurück", model: "claude-test-20260101", stopReason: "end_turn", usage: { inputTokens: 11, outputTokens: 3 } });
    expect(m.provider).toBe("anthropic");
    expect(m.model).toBe("claude-test");
    const body = fake.requests[0]!;
    expect(body.model).toBe("claude-test");
    expect(body.system).toBe("You are Lilo.");
    expect(body.max_tokens).toBe(321);
    expect(body.temperature).toBe(0.2);
    expect(body.messages).toEqual([
      { role: "user", content: "Hi" },
      { role: "assistant", content: "Hey" },
      { role: "user", content: "Hallo!" },
    ]);
    expect(fake.http[0]!.path).toBe("/v1/messages");
  });

  it("sends the request's own settings, leaving temperature out when unset", async () => {
    await model().complete({ ...hello, maxTokens: 50 });
    expect(fake.requests[0]!.max_tokens).toBe(50);
    expect(fake.requests[0]).not.toHaveProperty("temperature");
  });

  it("lets a responder answer by the request body", async () => {
    fake.replyAlways((body) => (body.system?.includes("JSON") ? '{"facts":[]}' : "Plauderei"));
    expect((await model().complete(hello)).text).toBe("Plauderei");
    expect((await model().complete({ ...hello, system: "Answer in JSON." })).text).toBe('{"facts":[]}');
  });

  it("maps 429 to a retryable ProviderError with retryAfterMs", async () => {
    fake.fail(429, 1, { "retry-after": "3" });
    const err = await failure(model().complete(hello));
    expect(err.status).toBe(429);
    expect(err.retryable).toBe(true);
    expect(err.provider).toBe("anthropic");
    expect(err.retryAfterMs).toBe(3_000);
    expect(err.cause).toBeInstanceOf(Error);
    expect(fake.requests).toHaveLength(1); // maxRetries 0: one attempt (retries: sdk-retry.test.ts)
  });

  it("marks a 500 or 529 retryable, a 400 not", async () => {
    fake.fail(500).fail(529).fail(400, 1, {}, "messages: field required");
    const e500 = await failure(model().complete(hello));
    expect([e500.status, e500.retryable]).toEqual([500, true]);
    const e529 = await failure(model().complete(hello));
    expect([e529.status, e529.retryable]).toEqual([529, true]);
    const e400 = await failure(model().complete(hello));
    expect([e400.status, e400.retryable]).toEqual([400, false]);
    expect(e400.message).toContain("messages: field required");
  });

  it("maps a wrong key to a non-retryable 401 whose message does not contain the key", async () => {
    const wrong = "sk-ant-WRONG-key-987654321";
    const err = await failure(model({ apiKey: wrong }).complete(hello));
    expect(err.status).toBe(401);
    expect(err.retryable).toBe(false);
    expect(err.message).not.toContain(wrong); // the fake echoes the key it got
    expect(String(err)).not.toContain(wrong);
    expect(err.message).toContain("***");
  });

  it("sends the key as x-api-key or Bearer", async () => {
    await model().complete(hello);
    const h = fake.http[0]!.headers;
    expect(h["x-api-key"] === KEY || h.authorization === `Bearer ${KEY}`).toBe(true);
  });

  it("maps a refused connection to a retryable ProviderError", async () => {
    const url = fake.baseURL;
    await fake.close();
    const err = await failure(model({ baseUrl: url }).complete(hello));
    expect(err.retryable).toBe(true);
    expect(err.status).toBeUndefined();
    expect(err.message).toMatch(/could not connect/);
    fake = await startFakeAnthropic(); // for afterEach
  });

  it("maps a dropped connection to a retryable ProviderError", async () => {
    fake.drop();
    const err = await failure(model().complete(hello));
    expect(err.retryable).toBe(true);
  });

  it("maps a hanging server to a timeout ProviderError", async () => {
    fake.hang();
    const started = Date.now();
    const err = await failure(model({ timeoutMs: 150 }).complete(hello));
    expect(err.retryable).toBe(true);
    expect(err.message).toMatch(/timed out after 150 ms/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("maps an aborted request to a non-retryable ProviderError", async () => {
    fake.hang();
    const ac = new AbortController();
    const p = model().complete({ ...hello, signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    const err = await failure(p);
    expect(err.retryable).toBe(false);
    expect(err.message).toMatch(/aborted/);
  });
});
