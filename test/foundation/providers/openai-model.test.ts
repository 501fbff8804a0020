import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OpenAICompatibleModel, PLACEHOLDER_API_KEY, type OpenAICompatibleModelOptions } from "../../../core/foundation/providers/openai-model.ts";
import { ProviderError } from "../../../core/foundation/errors.ts";
import type { ProviderFailure } from "../../../core/foundation/providers/sdk-errors.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../../fakes/fake-openai.ts";
import { sendJson, startFakeServer } from "../../fakes/http-server.ts";

const KEY = "sk-deepseek-test-SECRET-0123456789";

let fake: FakeOpenAI;
beforeEach(async () => {
  fake = await startFakeOpenAI({ apiKey: KEY });
});
afterEach(async () => {
  await fake.close();
});

function model(over: Partial<OpenAICompatibleModelOptions> = {}): OpenAICompatibleModel {
  return new OpenAICompatibleModel({
    provider: "deepseek",
    model: "deepseek-chat",
    apiKey: KEY,
    baseUrl: fake.baseURL,
    timeoutMs: 5_000,
    maxRetries: 0,
    maxTokens: 321,
    ...over,
  });
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

describe("OpenAICompatibleModel", () => {
  it("maps a ChatRequest to chat/completions and its answer back", async () => {
    fake.reply({ text: "Hallo zurück", model: "deepseek-chat-v3", usage: { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 } });
    const m = model();
    const res = await m.complete({
      ...hello,
      messages: [
        { role: "user", content: "Hi" },
        { role: "assistant", content: "Hey" },
        { role: "user", content: "Hallo!" },
      ],
      temperature: 0.7,
    });
    expect(res).toEqual({ text: "Hallo zurück", model: "deepseek-chat-v3", stopReason: "stop", usage: { inputTokens: 12, outputTokens: 4 } });
    expect([m.provider, m.model]).toEqual(["deepseek", "deepseek-chat"]);
    const body = fake.requests[0]!;
    expect(body.model).toBe("deepseek-chat");
    expect(body.max_tokens).toBe(321);
    expect(body.temperature).toBe(0.7);
    expect(body.response_format).toBeUndefined();
    expect(body.messages).toEqual([
      { role: "system", content: "You are Lilo." },
      { role: "user", content: "Hi" },
      { role: "assistant", content: "Hey" },
      { role: "user", content: "Hallo!" },
    ]);
    expect(fake.http[0]!.path).toBe("/v1/chat/completions");
    expect(fake.http[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("asks for a JSON object when json is set", async () => {
    fake.replyAlways((body) => (body.response_format?.type === "json_object" ? '{"facts":[]}' : "Plauderei"));
    expect((await model().complete({ ...hello, json: true, maxTokens: 40 })).text).toBe('{"facts":[]}');
    expect(fake.requests[0]!.response_format).toEqual({ type: "json_object" });
    expect(fake.requests[0]!.max_tokens).toBe(40);
    expect((await model().complete(hello)).text).toBe("Plauderei");
  });

  it("sends a placeholder key to a local server when none is configured", async () => {
    const local = await startFakeOpenAI();
    try {
      const res = await model({ provider: "ollama", model: "llama3.1", apiKey: undefined, baseUrl: local.baseURL }).complete(hello);
      expect(res.text).toBe("ok");
      expect(local.http[0]!.headers.authorization).toBe(`Bearer ${PLACEHOLDER_API_KEY}`);
    } finally {
      await local.close();
    }
  });

  it("does not pick up OPENAI_* variables from the environment", async () => {
    const saved = { org: process.env.OPENAI_ORG_ID, project: process.env.OPENAI_PROJECT_ID };
    process.env.OPENAI_ORG_ID = "org-leak";
    process.env.OPENAI_PROJECT_ID = "proj-leak";
    try {
      await model().complete(hello);
      expect(fake.http[0]!.headers["openai-organization"]).toBeUndefined();
      expect(fake.http[0]!.headers["openai-project"]).toBeUndefined();
    } finally {
      if (saved.org === undefined) delete process.env.OPENAI_ORG_ID;
      else process.env.OPENAI_ORG_ID = saved.org;
      if (saved.project === undefined) delete process.env.OPENAI_PROJECT_ID;
      else process.env.OPENAI_PROJECT_ID = saved.project;
    }
  });

  it("maps 429 to a retryable ProviderError with retryAfterMs", async () => {
    fake.fail(429, 1, { "retry-after-ms": "1500" });
    const err = await failure(model().complete(hello));
    expect([err.status, err.retryable, err.provider, err.retryAfterMs]).toEqual([429, true, "deepseek", 1_500]);
    expect(fake.requests).toHaveLength(1); // maxRetries 0: one attempt (retries: sdk-retry.test.ts)
  });

  it("marks a 500 retryable, a 400 not", async () => {
    fake.fail(500).fail(400, 1, {}, "Invalid 'messages': empty array");
    const e500 = await failure(model().complete(hello));
    expect([e500.status, e500.retryable]).toEqual([500, true]);
    const e400 = await failure(model().complete(hello));
    expect([e400.status, e400.retryable]).toEqual([400, false]);
    expect(e400.message).toContain("Invalid 'messages': empty array");
  });

  it("maps a wrong key to a non-retryable 401 whose message does not contain the key", async () => {
    const wrong = "sk-WRONG-key-987654321";
    const err = await failure(model({ apiKey: wrong }).complete(hello));
    expect([err.status, err.retryable]).toEqual([401, false]);
    expect(err.message).not.toContain(wrong); // the fake echoes the key it got
    expect(String(err)).not.toContain(wrong);
  });

  it("maps a 200 answer without choices (gateway error) to a ProviderError", async () => {
    // Answers like OpenRouter does for an upstream failure.
    const server = await startFakeServer((_req, res) => sendJson(res, 200, { error: { code: 502, message: "upstream down" } }));
    try {
      const err = await failure(model({ baseUrl: `${server.url}/v1` }).complete(hello));
      expect([err.status, err.retryable]).toEqual([502, true]);
      expect(err.message).toContain("upstream down");
    } finally {
      await server.close();
    }
  });

  it("maps a refused connection to a retryable ProviderError", async () => {
    const url = fake.baseURL;
    await fake.close();
    const err = await failure(model({ baseUrl: url }).complete(hello));
    expect([err.status, err.retryable]).toEqual([undefined, true]);
    expect(err.message).toMatch(/could not connect .*ECONNREFUSED/);
    fake = await startFakeOpenAI(); // for afterEach
  });

  it("maps a dropped connection to a retryable ProviderError", async () => {
    fake.drop();
    expect((await failure(model().complete(hello))).retryable).toBe(true);
  });

  it("maps a hanging server to a timeout ProviderError", async () => {
    fake.hang();
    const err = await failure(model({ timeoutMs: 150 }).complete(hello));
    expect(err.retryable).toBe(true);
    expect(err.message).toMatch(/timed out after 150 ms/);
  });
});
