import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OpenAICompatibleModel } from "../../../core/foundation/providers/openai-model.ts";
import { AnthropicModel } from "../../../core/foundation/providers/anthropic-model.ts";
import { acceptsImages } from "../../../core/foundation/config/media.ts";
import { loadConfig } from "../../../core/foundation/config/config.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../../fakes/fake-openai.ts";
import { startFakeAnthropic, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";

const IMAGE = { mediaType: "image/png", data: Buffer.from("PNG-BYTES").toString("base64") };

describe("image input on both providers", () => {
  let openai: FakeOpenAI;
  let anthropic: FakeAnthropic;
  beforeAll(async () => {
    openai = await startFakeOpenAI();
    anthropic = await startFakeAnthropic();
  });
  afterAll(async () => {
    await openai.close();
    await anthropic.close();
  });

  it("sends an OpenAI-compatible model the picture as an image_url data URL before the text", async () => {
    const model = new OpenAICompatibleModel({
      provider: "openai",
      model: "gpt-4o",
      apiKey: "sk-test",
      baseUrl: openai.baseURL,
      timeoutMs: 5_000,
      maxRetries: 0,
      maxTokens: 100,
    });
    await model.complete({
      system: "sys",
      messages: [
        { role: "assistant", content: "Hallo" },
        { role: "user", content: "Was ist das?", images: [IMAGE] },
      ],
    });
    expect(openai.requests.at(-1)!.messages.at(-1)).toEqual({
      role: "user",
      content: [
        { type: "image_url", image_url: { url: `data:image/png;base64,${IMAGE.data}` } },
        { type: "text", text: "Was ist das?" },
      ],
    });
  });

  it("sends Anthropic the picture as a base64 image block", async () => {
    const model = new AnthropicModel({
      provider: "anthropic",
      model: "claude-test",
      apiKey: "sk-ant",
      baseUrl: anthropic.baseURL,
      timeoutMs: 5_000,
      maxRetries: 0,
      maxTokens: 100,
    });
    await model.complete({ system: "sys", messages: [{ role: "user", content: "", images: [IMAGE] }] });
    expect(anthropic.requests.at(-1)!.messages.at(-1)).toEqual({
      role: "user",
      content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: IMAGE.data } }],
    });
  });

  it("reads LILO_VISION as providers or single models, by default the providers that see pictures", () => {
    const media = (v?: string) => loadConfig({ LILO_DATA_DIR: "/tmp/x", ...(v !== undefined ? { LILO_VISION: v } : {}) }).media;
    expect(acceptsImages(media(), { provider: "anthropic", model: "claude-sonnet-4-5" })).toBe(true);
    expect(acceptsImages(media(), { provider: "openai", model: "gpt-4o" })).toBe(true);
    expect(acceptsImages(media(), { provider: "deepseek", model: "deepseek-chat" })).toBe(false);
    expect(acceptsImages(media("anthropic, ollama:llava"), { provider: "ollama", model: "llava" })).toBe(true);
    expect(acceptsImages(media("anthropic, ollama:llava"), { provider: "ollama", model: "llama3" })).toBe(false);
    expect(acceptsImages(media("none"), { provider: "anthropic", model: "claude-sonnet-4-5" })).toBe(false);
  });
});
