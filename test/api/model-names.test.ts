import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, ModelSwitchError } from "../../core/index.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../fakes/fake-openai.ts";
import { makeTestLilo } from "../helpers/test-lilo.ts";
import { runCli } from "../helpers/cli.ts";

/**
 * One rule for model names, wherever a name is given: LILO_CHAT_MODEL at
 * start, `/model`, `lilo model`, `lilo settings set chat_model`. A bare word
 * is a provider (its default model) or a model of the provider in force; a
 * model the provider's `/models` list lacks is refused with one message.
 */
describe("model names", () => {
  let llm: FakeOpenAI;
  beforeAll(async () => {
    llm = await startFakeOpenAI({ models: ["llama3.1:8b", "qwen2.5"] });
  });
  afterAll(() => llm.close());

  const env = () => ({ OPENAI_BASE_URL: llm.baseURL, LILO_CHAT_MODEL: "openai:qwen2.5" });

  it("reads a bare word the same way in the configuration as at run time", () => {
    // A name with a colon is read as provider:model everywhere: Ollama tags need their provider named.
    expect(() => loadConfig({ OPENAI_BASE_URL: llm.baseURL, LILO_CHAT_MODEL: "llama3.1:8b" })).toThrow(/Unknown provider "llama3.1"/);
    expect(loadConfig({ OPENAI_BASE_URL: llm.baseURL, LILO_CHAT_MODEL: "qwen2.5" }).models.chat).toEqual({ provider: "openai", model: "qwen2.5" });
    expect(loadConfig({ DEEPSEEK_API_KEY: "k", LILO_CHAT_MODEL: "deepseek" }).models.chat).toEqual({ provider: "deepseek", model: "deepseek-chat" });
    expect(() => loadConfig({ LILO_CHAT_MODEL: "llama3" })).toThrow(ModelSwitchError);
    expect(() => loadConfig({ LILO_CHAT_MODEL: "llama3" })).toThrow('LILO_CHAT_MODEL: Unknown provider "llama3"');
  });

  it("refuses a model the provider does not list with one message everywhere: at start, in lilo model, in lilo settings", async () => {
    const message = 'The provider "openai" does not offer the model "bogus" (it offers: llama3.1:8b, qwen2.5).';
    const atStart = makeTestLilo({ ...env(), LILO_CHAT_MODEL: "openai:bogus" });
    await expect(atStart.lilo.models.checkChat()).rejects.toThrow(message);
    await atStart.cleanup();

    const t = makeTestLilo(env());
    try {
      await expect(t.lilo.models.checkChat()).resolves.toBeUndefined();
      await expect(t.lilo.models.switchChat("bogus", t.lilo.clock.now().toISOString())).rejects.toThrow(message);
      await expect(t.lilo.models.switchChat("llama3.1:8b", t.lilo.clock.now().toISOString())).rejects.toThrow('Unknown provider "llama3.1"');
      expect(await t.lilo.models.switchChat("openai:llama3.1:8b", t.lilo.clock.now().toISOString())).toEqual({ provider: "openai", model: "llama3.1:8b" });
    } finally {
      await t.cleanup();
    }
    for (const args of [
      ["model", "openai:bogus"],
      ["settings", "set", "chat_model", "openai:bogus"],
    ]) {
      const cli = makeTestLilo(env());
      const r = await runCli(() => cli.lilo, args);
      expect(r, args.join(" ")).toMatchObject({ code: 1, err: `error: ${message}` });
      await cli.cleanup().catch(() => undefined);
    }
  });
});
