import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig, type LiloConfig } from "../../../core/foundation/config/config.ts";
import { ConfigError, ProviderError } from "../../../core/foundation/errors.ts";
import { modelLabel } from "../../../core/foundation/ports/chat-model.ts";
import { createChatModel } from "../../../core/foundation/providers/model-factory.ts";
import { startFakeAnthropic, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../../fakes/fake-openai.ts";

const hello = { system: "You are Lilo.", messages: [{ role: "user" as const, content: "Hallo!" }] };

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

describe("createChatModel: configuration errors", () => {
  const empty = loadConfig({});

  it("names ANTHROPIC_API_KEY when Anthropic has no key", () => {
    expect(configError(() => createChatModel({ provider: "anthropic", model: "claude-sonnet-4-5" }, empty)).message).toContain("ANTHROPIC_API_KEY");
    // A base URL alone does not make Anthropic keyless.
    const withUrl = loadConfig({ ANTHROPIC_BASE_URL: "http://127.0.0.1:9/" });
    expect(configError(() => createChatModel({ provider: "anthropic", model: "c" }, withUrl)).message).toContain("ANTHROPIC_API_KEY");
  });

  it("names the vendor's key variable for hosted OpenAI-compatible vendors", () => {
    expect(configError(() => createChatModel({ provider: "deepseek", model: "deepseek-chat" }, empty)).message).toContain("DEEPSEEK_API_KEY");
    expect(configError(() => createChatModel({ provider: "openrouter", model: "x/y" }, empty)).message).toContain("OPENROUTER_API_KEY");
    expect(configError(() => createChatModel({ provider: "openai", model: "gpt-4o-mini" }, empty)).message).toContain("OPENAI_API_KEY");
    // Setting the base URL to the vendor's own default is still the hosted service.
    const hosted = loadConfig({ DEEPSEEK_BASE_URL: "https://api.deepseek.com" });
    expect(configError(() => createChatModel({ provider: "deepseek", model: "deepseek-chat" }, hosted)).message).toContain("DEEPSEEK_API_KEY");
  });

  it("names both variables for a vendor without a URL, e.g. Ollama", () => {
    const msg = configError(() => createChatModel({ provider: "ollama", model: "llama3.1" }, empty)).message;
    expect(msg).toContain("OLLAMA_API_KEY");
    expect(msg).toContain("OLLAMA_BASE_URL");
  });

  it("derives the variable for a provider outside the vendor table", () => {
    const config: Pick<LiloConfig, "providers" | "modelCall"> = {
      ...empty,
      providers: { ...empty.providers, groq: { kind: "openai-compatible", apiKey: undefined, baseUrl: undefined, defaultModel: undefined } },
    };
    expect(configError(() => createChatModel({ provider: "groq", model: "m" }, config)).message).toContain("GROQ_API_KEY");
  });

  it("rejects an unknown provider, listing the known ones", () => {
    const msg = configError(() => createChatModel({ provider: "nope", model: "m" }, empty)).message;
    expect(msg).toContain('"nope"');
    expect(msg).toContain("anthropic");
    expect(msg).toContain("deepseek");
  });

  it("never puts a key into an error message", () => {
    const config = loadConfig({ ANTHROPIC_API_KEY: "sk-ant-SECRET-1" });
    const msg = configError(() => createChatModel({ provider: "deepseek", model: "deepseek-chat" }, config)).message;
    expect(msg).not.toContain("sk-ant-SECRET-1");
  });
});

describe("createChatModel: working models", () => {
  let anthropic: FakeAnthropic;
  let openai: FakeOpenAI;
  beforeEach(async () => {
    anthropic = await startFakeAnthropic({ apiKey: "sk-ant-SECRET-1" });
    openai = await startFakeOpenAI();
  });
  afterEach(async () => {
    await anthropic.close();
    await openai.close();
  });

  it("builds an Anthropic model with timeout, retries and max tokens from the config", async () => {
    const config = loadConfig({
      ANTHROPIC_API_KEY: "sk-ant-SECRET-1",
      ANTHROPIC_BASE_URL: anthropic.baseURL,
      LILO_MODEL_MAX_TOKENS: "777",
      LILO_MODEL_MAX_RETRIES: "2",
      LILO_MODEL_TIMEOUT_MS: "150",
    });
    const m = createChatModel({ provider: "anthropic", model: "claude-test" }, config);
    expect(modelLabel(m)).toBe("anthropic:claude-test");

    anthropic.fail(500, 1, { "retry-after-ms": "1" }).hang().reply("Hallo!");
    const res = await m.complete(hello);
    expect(res.text).toBe("Hallo!");
    expect(anthropic.requests).toHaveLength(3); // 500, then a 150 ms timeout, then success
    expect(anthropic.requests[2]!.max_tokens).toBe(777);
    expect(anthropic.requests[2]!.system).toBe("You are Lilo.");

    anthropic.fail(500, 3, { "retry-after-ms": "1" });
    await expect(m.complete(hello)).rejects.toMatchObject({ status: 500 });
    expect(anthropic.requests).toHaveLength(6); // 1 + 2 retries
  });

  it("builds a keyless model for a local server (base URL set, no key)", async () => {
    const config = loadConfig({ OLLAMA_BASE_URL: openai.baseURL });
    const m = createChatModel({ provider: "ollama", model: "llama3.1" }, config);
    openai.reply("Servus");
    expect(await m.complete({ ...hello, json: true })).toMatchObject({ text: "Servus", model: "llama3.1" });
    expect(openai.requests[0]!.model).toBe("llama3.1");
    expect(openai.requests[0]!.response_format).toEqual({ type: "json_object" });
    expect(modelLabel(m)).toBe("ollama:llama3.1");
  });

  it("builds a hosted vendor's model with its key", async () => {
    const config = loadConfig({ DEEPSEEK_API_KEY: "sk-ds-SECRET-2", DEEPSEEK_BASE_URL: openai.baseURL });
    const m = createChatModel({ provider: "deepseek", model: "deepseek-chat" }, config);
    await m.complete(hello);
    expect(openai.http[0]!.headers.authorization).toBe("Bearer sk-ds-SECRET-2");
    expect(openai.requests[0]!.max_tokens).toBe(config.modelCall.maxTokens);
  });

  it("surfaces a provider failure as ProviderError", async () => {
    const config = loadConfig({ OPENAI_BASE_URL: openai.baseURL, LILO_MODEL_MAX_RETRIES: "0" });
    openai.fail(429);
    const err = await createChatModel({ provider: "openai", model: "llama3.1" }, config)
      .complete(hello)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).provider).toBe("openai");
  });
});
