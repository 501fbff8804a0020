import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ProviderError } from "../../../core/foundation/errors.ts";
import { AnthropicModel } from "../../../core/foundation/providers/anthropic-model.ts";
import { OpenAICompatibleModel } from "../../../core/foundation/providers/openai-model.ts";
import {
  backoffDelay,
  parseRetryAfter,
  providerFailure,
  RetryingModel,
  withRetry,
  type RetryInfo,
  type Sleep,
} from "../../../core/foundation/providers/retry.ts";
import { startFakeAnthropic, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../../fakes/fake-openai.ts";

/** A sleep that records the waits and returns at once. */
function recordingSleep(): Sleep & { waits: number[] } {
  const waits: number[] = [];
  const sleep = (async (ms: number) => {
    waits.push(ms);
  }) as Sleep & { waits: number[] };
  sleep.waits = waits;
  return sleep;
}

const retryable = (status = 503) => new ProviderError(`boom ${status}`, { provider: "p", status, retryable: true });
const fatal = () => new ProviderError("nope", { provider: "p", status: 400, retryable: false });

describe("withRetry", () => {
  it("returns the first success without waiting", async () => {
    const sleep = recordingSleep();
    await expect(withRetry(async () => "ok", { maxRetries: 3, sleep })).resolves.toBe("ok");
    expect(sleep.waits).toEqual([]);
  });

  it("retries retryable ProviderErrors with exponential backoff and reports each retry", async () => {
    const sleep = recordingSleep();
    const infos: RetryInfo[] = [];
    const fn = vi.fn(async (attempt: number) => {
      if (attempt < 3) throw retryable();
      return `done after ${attempt}`;
    });
    const out = await withRetry(fn, { maxRetries: 3, sleep, random: () => 0.999999, onRetry: (i) => infos.push(i) });
    expect(out).toBe("done after 3");
    expect(fn).toHaveBeenCalledTimes(4);
    expect(sleep.waits).toEqual([500, 1000, 2000]);
    expect(infos.map((i) => [i.attempt, i.delayMs, i.error.status])).toEqual([
      [1, 500, 503],
      [2, 1000, 503],
      [3, 2000, 503],
    ]);
  });

  it("throws the last error when the retries run out", async () => {
    const sleep = recordingSleep();
    let n = 0;
    const err = await withRetry(
      async () => {
        throw retryable(500 + n++);
      },
      { maxRetries: 2, sleep },
    ).catch((e: unknown) => e);
    expect((err as ProviderError).status).toBe(502);
    expect(sleep.waits).toHaveLength(2);
  });

  it("does not retry non-retryable ProviderErrors or other errors", async () => {
    const sleep = recordingSleep();
    const a = vi.fn(async () => {
      throw fatal();
    });
    await expect(withRetry(a, { maxRetries: 3, sleep })).rejects.toMatchObject({ status: 400 });
    const b = vi.fn(async () => {
      throw new TypeError("bug");
    });
    await expect(withRetry(b, { maxRetries: 3, sleep })).rejects.toBeInstanceOf(TypeError);
    expect([a.mock.calls.length, b.mock.calls.length, sleep.waits.length]).toEqual([1, 1, 0]);
  });

  it("tries once with maxRetries 0", async () => {
    const fn = vi.fn(async () => {
      throw retryable();
    });
    await expect(withRetry(fn, { maxRetries: 0, sleep: recordingSleep() })).rejects.toBeInstanceOf(ProviderError);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it("waits as long as Retry-After says, and gives up when that is too long", async () => {
    const hinted = (ms: number) => Object.assign(retryable(429), { retryAfterMs: ms });
    const sleep = recordingSleep();
    let n = 0;
    await withRetry(
      async () => {
        if (n++ === 0) throw hinted(7_000);
        return "ok";
      },
      { maxRetries: 2, sleep },
    );
    expect(sleep.waits).toEqual([7_000]);

    const fn = vi.fn(async () => {
      throw hinted(120_000);
    });
    await expect(withRetry(fn, { maxRetries: 2, sleep, maxRetryAfterMs: 60_000 })).rejects.toMatchObject({ status: 429 });
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it("stops when the signal aborts during the wait", async () => {
    const ac = new AbortController();
    const fn = vi.fn(async () => {
      throw retryable();
    });
    const sleep: Sleep = async () => {
      ac.abort();
      throw new Error("aborted");
    };
    await expect(withRetry(fn, { maxRetries: 5, sleep, signal: ac.signal })).rejects.toMatchObject({ status: 503 });
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it("really waits with the default sleep (briefly)", async () => {
    let n = 0;
    const started = Date.now();
    await withRetry(
      async () => {
        if (n++ === 0) throw retryable();
        return "ok";
      },
      { maxRetries: 1, baseDelayMs: 20 },
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(9);
  });
});

describe("backoffDelay", () => {
  it("doubles per attempt, is capped, and keeps at least half of the step", () => {
    const lo = (a: number) => backoffDelay(a, { baseDelayMs: 500, maxDelayMs: 8_000, random: () => 0 });
    const hi = (a: number) => backoffDelay(a, { baseDelayMs: 500, maxDelayMs: 8_000, random: () => 0.999999 });
    expect([0, 1, 2, 3, 4, 5, 9].map(lo)).toEqual([250, 500, 1000, 2000, 4000, 4000, 4000]);
    expect([0, 1, 2, 3, 4, 5, 9].map(hi)).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
    for (let i = 0; i < 50; i++) {
      const d = backoffDelay(2);
      expect(d).toBeGreaterThanOrEqual(1000);
      expect(d).toBeLessThanOrEqual(2000);
    }
  });
});

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
  it("classifies statuses and honours x-should-retry", () => {
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

describe("RetryingModel against the fake servers", () => {
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

  const claude = (sleep: Sleep, maxRetries = 3, timeoutMs = 5_000) =>
    new RetryingModel(
      new AnthropicModel({ model: "claude-test", apiKey: KEY, baseUrl: anthropic.baseURL, timeoutMs, maxTokens: 100 }),
      { maxRetries, sleep },
    );
  const deepseek = (sleep: Sleep, maxRetries = 3) =>
    new RetryingModel(
      new OpenAICompatibleModel({ provider: "deepseek", model: "deepseek-chat", apiKey: KEY, baseUrl: openai.baseURL, timeoutMs: 5_000, maxTokens: 100 }),
      { maxRetries, sleep },
    );

  it("keeps provider and model of the inner model", () => {
    const m = deepseek(recordingSleep());
    expect([m.provider, m.model]).toEqual(["deepseek", "deepseek-chat"]);
  });

  it("retries a 429 after the Retry-After the server sent (Anthropic)", async () => {
    anthropic.fail(429, 1, { "retry-after": "2" }).reply("Da bin ich.");
    const sleep = recordingSleep();
    const res = await claude(sleep).complete(hello);
    expect(res.text).toBe("Da bin ich.");
    expect(sleep.waits).toEqual([2_000]);
    expect(anthropic.requests).toHaveLength(2);
    expect(anthropic.requests[1]!.messages).toEqual(hello.messages);
  });

  it("retries a 429 after the Retry-After the server sent (OpenAI-compatible)", async () => {
    openai.fail(429, 2, { "retry-after": "1" }).reply("Da bin ich.");
    const sleep = recordingSleep();
    expect((await deepseek(sleep).complete(hello)).text).toBe("Da bin ich.");
    expect(sleep.waits).toEqual([1_000, 1_000]);
    expect(openai.requests).toHaveLength(3);
  });

  it("retries 500s with backoff", async () => {
    anthropic.fail(500, 2).reply("endlich");
    openai.fail(500, 2).reply("endlich");
    const s1 = recordingSleep();
    const s2 = recordingSleep();
    expect((await claude(s1).complete(hello)).text).toBe("endlich");
    expect((await deepseek(s2).complete(hello)).text).toBe("endlich");
    expect(s1.waits).toHaveLength(2);
    expect(s2.waits).toHaveLength(2);
    expect(s1.waits[1]!).toBeGreaterThanOrEqual(500);
  });

  it("gives up after maxRetries and surfaces the last ProviderError", async () => {
    openai.fail(503, 5);
    const sleep = recordingSleep();
    const err = await deepseek(sleep, 2).complete(hello).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).status).toBe(503);
    expect(openai.requests).toHaveLength(3);
  });

  it("does not retry 400 or 401", async () => {
    anthropic.fail(400);
    const sleep = recordingSleep();
    await expect(claude(sleep).complete(hello)).rejects.toMatchObject({ status: 400, retryable: false });
    expect(anthropic.requests).toHaveLength(1);

    const wrongKey = new RetryingModel(
      new OpenAICompatibleModel({ provider: "openai", model: "gpt-4o-mini", apiKey: "sk-WRONG-1234567", baseUrl: openai.baseURL, timeoutMs: 5_000, maxTokens: 100 }),
      { maxRetries: 3, sleep },
    );
    const err = (await wrongKey.complete(hello).catch((e: unknown) => e)) as ProviderError;
    expect([err.status, err.retryable]).toEqual([401, false]);
    expect(String(err)).not.toContain("sk-WRONG-1234567");
    expect(sleep.waits).toEqual([]);
  });

  it("retries a dropped connection and a timeout", async () => {
    anthropic.drop().hang().reply("wieder da");
    const sleep = recordingSleep();
    expect((await claude(sleep, 3, 150).complete(hello)).text).toBe("wieder da");
    expect(sleep.waits).toHaveLength(2);
    expect(anthropic.requests).toHaveLength(3);
  });

  it("retries a refused connection and then fails with a retryable ProviderError", async () => {
    const url = openai.baseURL;
    await openai.close();
    const sleep = recordingSleep();
    const m = new RetryingModel(
      new OpenAICompatibleModel({ provider: "ollama", model: "llama3.1", baseUrl: url, timeoutMs: 1_000, maxTokens: 100 }),
      { maxRetries: 2, sleep },
    );
    const err = (await m.complete(hello).catch((e: unknown) => e)) as ProviderError;
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.retryable).toBe(true);
    expect(sleep.waits).toHaveLength(2);
    openai = await startFakeOpenAI(); // for afterEach
  });
});
