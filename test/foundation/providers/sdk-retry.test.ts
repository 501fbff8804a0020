import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ProviderError } from "../../../core/foundation/errors.ts";
import { AnthropicModel } from "../../../core/foundation/providers/anthropic-model.ts";
import { OpenAICompatibleModel } from "../../../core/foundation/providers/openai-model.ts";
import { parseRetryAfter, providerFailure, type ProviderFailure } from "../../../core/foundation/providers/sdk-errors.ts";
import { startFakeAnthropic, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../../fakes/fake-openai.ts";

// The retries are the SDKs' own and sleep real time: the fakes answer with tiny Retry-After values
// where the test is not about the default backoff.
const TINY = { "retry-after-ms": "1" };

describe("parseRetryAfter", () => {
  const h = (o: Record<string, string>) => new Headers(o);
  it("reads retry-after-ms, seconds and HTTP dates", () => {
    expect(parseRetryAfter(h({ "retry-after-ms": "250" }))).toBe(250);
    expect(parseRetryAfter(h({ "retry-after": "2" }))).toBe(2_000);
    expect(parseRetryAfter(h({ "retry-after": "0.5" }))).toBe(500);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter(h({ "retry-after": "Thu, 01 Jan 2026 00:00:05 GMT" }), now)).toBe(5_000);
    expect(parseRetryAfter(h({ "retry-after": "Thu, 01 Jan 2025 00:00:05 GMT" }), now)).toBe(0);
    expect(parseRetryAfter(h({ "retry-after": "soon" }))).toBeUndefined();
    expect(parseRetryAfter(h({}))).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

describe("providerFailure", () => {
  it("decides retryable by status unless x-should-retry says otherwise", () => {
    const f = (status: number, headers?: Record<string, string>) =>
      providerFailure({ provider: "p", kind: "http", status, cause: null, ...(headers ? { headers: new Headers(headers) } : {}) }).retryable;
    expect([408, 409, 429, 500, 502, 503, 529].map((s) => f(s))).toEqual([true, true, true, true, true, true, true]);
    expect([400, 401, 403, 404, 413, 422].map((s) => f(s))).toEqual([false, false, false, false, false, false]);
    expect(f(400, { "x-should-retry": "true" })).toBe(true);
    expect(f(503, { "x-should-retry": "false" })).toBe(false);
  });

  it("redacts every secret from the message", () => {
    const err = providerFailure({ provider: "p", kind: "other", detail: "key sk-123 was sk-123", secrets: ["sk-123", undefined], cause: null });
    expect(err.message).toBe("p request failed: key *** was ***");
  });
});

describe("the SDKs' retries against the fake servers", () => {
  const KEY = "sk-retry-SECRET-42";
  const hello = { system: "You are Lilo.", messages: [{ role: "user" as const, content: "Hallo!" }] };
  let anthropic: FakeAnthropic;
  let openai: FakeOpenAI;
  beforeEach(async () => {
    anthropic = await startFakeAnthropic({ apiKey: KEY });
    openai = await startFakeOpenAI({ apiKey: KEY });
  });
  afterEach(async () => {
    await anthropic.close();
    await openai.close();
  });

  const claude = (maxRetries = 3, timeoutMs = 5_000) =>
    new AnthropicModel({ model: "claude-test", apiKey: KEY, baseUrl: anthropic.baseURL, timeoutMs, maxRetries, maxTokens: 100 });
  const deepseek = (maxRetries = 3) =>
    new OpenAICompatibleModel({
      provider: "deepseek",
      model: "deepseek-chat",
      apiKey: KEY,
      baseUrl: openai.baseURL,
      timeoutMs: 5_000,
      maxRetries,
      maxTokens: 100,
    });
  const timed = async <T>(p: Promise<T>): Promise<[T, number]> => {
    const started = Date.now();
    const out = await p;
    return [out, Date.now() - started];
  };

  it("retries a 429 after the Retry-After the server sent (Anthropic)", async () => {
    anthropic.fail(429, 1, { "retry-after": "1" }).reply("Da bin ich.");
    const [res, ms] = await timed(claude().complete(hello));
    expect(res.text).toBe("Da bin ich.");
    expect(ms).toBeGreaterThanOrEqual(990); // the default first wait is at most 500 ms
    expect(anthropic.requests).toHaveLength(2);
    expect(anthropic.requests[1]!.messages).toEqual(hello.messages);
  });

  it("retries a 429 after the Retry-After the server sent (OpenAI-compatible)", async () => {
    openai.fail(429, 2, TINY).reply("Da bin ich.");
    const [res, ms] = await timed(deepseek().complete(hello));
    expect(res.text).toBe("Da bin ich.");
    expect(ms).toBeLessThan(1_000); // the default waits would be at least 375 + 750 ms
    expect(openai.requests).toHaveLength(3);
  });

  it("retries 500s with backoff", async () => {
    anthropic.fail(500, 2).reply("endlich");
    openai.fail(500, 2).reply("endlich");
    const [[a, b], ms] = await timed(Promise.all([claude().complete(hello), deepseek().complete(hello)]));
    expect([a.text, b.text]).toEqual(["endlich", "endlich"]);
    expect([anthropic.requests.length, openai.requests.length]).toEqual([3, 3]);
    expect(ms).toBeGreaterThanOrEqual(1_100); // 0.5 s then 1 s, less up to a quarter of jitter
  });

  it("surfaces the last ProviderError after maxRetries", async () => {
    openai.fail(503, 5, TINY);
    const err = await deepseek(2)
      .complete(hello)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).status).toBe(503);
    expect(openai.requests).toHaveLength(3);
  });

  it("does not retry 400 or 401, nor what the server says not to retry", async () => {
    anthropic.fail(400);
    await expect(claude().complete(hello)).rejects.toMatchObject({ status: 400, retryable: false });
    expect(anthropic.requests).toHaveLength(1);

    const wrongKey = new OpenAICompatibleModel({
      provider: "openai",
      model: "gpt-4o-mini",
      apiKey: "sk-WRONG-1234567",
      baseUrl: openai.baseURL,
      timeoutMs: 5_000,
      maxRetries: 3,
      maxTokens: 100,
    });
    const err = (await wrongKey.complete(hello).catch((e: unknown) => e)) as ProviderError;
    expect([err.status, err.retryable]).toEqual([401, false]);
    expect(String(err)).not.toContain("sk-WRONG-1234567");
    expect(openai.http).toHaveLength(1);

    openai.fail(503, 1, { "x-should-retry": "false" });
    await expect(deepseek().complete(hello)).rejects.toMatchObject({ status: 503, retryable: false });
    expect(openai.http).toHaveLength(2);
  });

  it("does not wait for a Retry-After longer than a minute: fails at once, retryable later", async () => {
    anthropic.fail(429, 1, { "retry-after": "120" });
    openai.fail(529, 1, { "retry-after-ms": "90000" });
    const [errs, ms] = await timed(
      Promise.all([
        claude()
          .complete(hello)
          .catch((e: unknown) => e),
        deepseek()
          .complete(hello)
          .catch((e: unknown) => e),
      ]),
    );
    expect(ms).toBeLessThan(1_000);
    const [a, b] = errs as ProviderFailure[];
    expect([a!.status, a!.retryable, a!.retryAfterMs]).toEqual([429, true, 120_000]);
    expect([b!.status, b!.retryable, b!.retryAfterMs]).toEqual([529, true, 90_000]);
    expect([anthropic.requests.length, openai.requests.length]).toEqual([1, 1]);
  });

  it("tries once when the request asks for no retries", async () => {
    anthropic.fail(529, 2, TINY);
    openai.fail(500, 2, TINY);
    await expect(claude().complete({ ...hello, maxRetries: 0 })).rejects.toMatchObject({ status: 529, retryable: true });
    await expect(deepseek().complete({ ...hello, maxRetries: 0 })).rejects.toMatchObject({ status: 500, retryable: true });
    expect([anthropic.requests.length, openai.requests.length]).toEqual([1, 1]);
  });

  it("retries a dropped connection and a timeout", async () => {
    anthropic.drop().hang().reply("wieder da");
    expect((await claude(3, 150).complete(hello)).text).toBe("wieder da");
    expect(anthropic.requests).toHaveLength(3);
  });

  it("retries a refused connection, failing with a retryable ProviderError", async () => {
    const url = openai.baseURL;
    await openai.close();
    const m = new OpenAICompatibleModel({ provider: "ollama", model: "llama3.1", baseUrl: url, timeoutMs: 1_000, maxRetries: 2, maxTokens: 100 });
    const [err, ms] = await timed(m.complete(hello).catch((e: unknown) => e as ProviderError));
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).retryable).toBe(true);
    expect(ms).toBeGreaterThanOrEqual(1_100); // two backoff waits: the SDK retried
    openai = await startFakeOpenAI(); // for afterEach
  });
});
