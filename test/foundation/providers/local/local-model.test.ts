/**
 * Lilo's own model through the real node-llama-cpp and llama.cpp, on a tiny
 * GGUF the test writes (random weights, test/fixtures/tiny-gguf.ts): free
 * text, JSON under a grammar made from Lilo's own zod schemas, the KV cache
 * kept between calls, the queue, idle unloading, and tools refused by a
 * template without function calling. One thread: the CI machine has two
 * cores, and llama.cpp's threads spin while they wait for each other.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTinyGguf } from "../../../fixtures/tiny-gguf.ts";
import { LocalModels, type LocalConfig } from "../../../../core/foundation/providers/local/local-models.ts";
import { extractionGrammar } from "../../../../core/conversation/extraction/extract.ts";
import { judgeSchema } from "../../../../core/conversation/correction/judge.ts";
import { ruleSchema } from "../../../../core/conversation/correction/rule-derivation.ts";
import { parseModelJson } from "../../../../core/foundation/util/model-json.ts";
import { ConfigError, ProviderError } from "../../../../core/foundation/errors.ts";
import { silentLogger } from "../../../../core/foundation/ports/logger.ts";
import type { ChatModel, ChatRequest } from "../../../../core/foundation/ports/chat-model.ts";

let dir: string;
let file: string;
let local: LocalModels;
let model: ChatModel;
/** The idle unload the engine scheduled last (run by hand instead of waiting). */
let idle: { ms: number; fn: () => void; cancelled: boolean } | undefined;

const config = (d: string): LocalConfig => ({ dir: d, offline: true, gpu: "off", threads: 1, contextTokens: 4096, idleMinutes: 15 });
const hello: ChatRequest = {
  system: "Du bist Lilo, eine Begleiterin.",
  messages: [{ role: "user", content: "Hallo, wie geht's dir heute?" }],
  maxTokens: 24,
  temperature: 0,
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "lilo-local-"));
  file = (await createTinyGguf(join(dir, "tiny.gguf"))).path;
  local = new LocalModels(config(dir), 768, silentLogger, {
    schedule: (ms, fn) => {
      const timer = { ms, fn, cancelled: false };
      idle = timer;
      return { cancel: () => void (timer.cancelled = true) };
    },
  });
  model = local.chatModel(file);
});

afterAll(async () => {
  await local.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("local model on the real llama.cpp", () => {
  it("answers a repeated prompt from the KV cache, with usage reported", async () => {
    const first = await model.complete(hello);
    expect(first.model).toBe(file);
    expect(typeof first.text).toBe("string");
    expect(first.usage!.outputTokens).toBeGreaterThan(0);
    expect(first.usage!.outputTokens).toBeLessThanOrEqual(24);
    expect(first.usage!.inputTokens).toBeGreaterThan(20);

    const second = await model.complete(hello);
    // Greedy decoding on the same weights: the same answer, and the whole prompt came from the cache.
    expect(second.text).toBe(first.text);
    expect(second.usage!.cachedInputTokens).toBeGreaterThan(0);
    expect(second.usage!.cachedInputTokens).toBeGreaterThanOrEqual(second.usage!.inputTokens - 2);
  });

  it.each([
    ["extraction", extractionGrammar],
    ["judge", judgeSchema],
    ["rule", ruleSchema],
  ] as const)("random weights under the %s schema's grammar still write JSON that parses against it", async (_name, schema) => {
    for (const temperature of [0, 0.9]) {
      const res = await model.complete({
        system: "Antworte nur mit JSON.",
        messages: [{ role: "user", content: "Ich trinke morgens gerne Kaffee mit Hafermilch." }],
        json: true,
        schema,
        maxTokens: 768,
        temperature,
      });
      const parsed = parseModelJson(res.text, schema as never);
      expect(parsed, res.text).toMatchObject({ ok: true, repaired: false });
    }
  });

  it("answers five concurrent requests one after another, in order, with one model in memory", async () => {
    const order: number[] = [];
    const calls = [0, 1, 2, 3, 4].map((i) => model.complete(hello).then((r) => (order.push(i), r)));
    const engine = local.shared();
    const results = await Promise.all(calls);
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    expect(engine.pending).toBe(0);
    expect(engine.isLoaded).toBe(true);
  });

  it("LILO_LOCAL_SEED: the same seed draws the same words at a high temperature, and the next request draws anew", async () => {
    const seeded = () => new LocalModels({ ...config(dir), seed: 42 }, 768, silentLogger);
    const a = seeded();
    const b = seeded();
    try {
      const warm: ChatRequest = { ...hello, temperature: 0.9 };
      const first = await a.chatModel(file).complete(warm);
      expect(first.usage!.outputTokens).toBeGreaterThan(1);
      expect((await b.chatModel(file).complete(warm)).text).toBe(first.text);
      expect((await a.chatModel(file).complete(warm)).text).not.toBe(first.text);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("refuses native tools with a 400 naming tools when the chat template has no function calling (the tool loop then uses markers)", async () => {
    const err = await model
      .complete({
        ...hello,
        tools: [{ name: "web_search", description: "search the web", parameters: { type: "object", properties: { query: { type: "string" } } } }],
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).status).toBe(400);
    expect((err as Error).message).toMatch(/tools/);
  });

  it("unloads the model when idle, until the next request", async () => {
    await model.complete(hello);
    expect(idle?.ms).toBe(15 * 60_000);
    expect(idle?.cancelled).toBe(false);
    idle!.fn();
    await local.shared().unload();
    expect(local.shared().isLoaded).toBe(false);
    const again = await model.complete(hello);
    expect(again.usage!.outputTokens).toBeGreaterThan(0);
    expect(local.shared().isLoaded).toBe(true);
  });

  it("LILO_LOCAL_GPU=cuda without the CUDA binaries (stubbed out by package.json) says how to install them", async () => {
    const gpu = new LocalModels({ ...config(dir), gpu: "cuda" }, 16, silentLogger);
    const err = await gpu
      .chatModel(file)
      .complete(hello)
      .catch((e: unknown) => e);
    await gpu.close();
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as Error).message).toContain("npm run local:gpu -- cuda");
  });

  it("names the choices for an unknown model", () => {
    expect(() => local.chatModel("gpt-5")).toThrow(ConfigError);
    expect(() => local.chatModel("gpt-5")).toThrow(/qwen2.5-1.5b/);
  });

  it("names the folder of a catalogue file missing offline", async () => {
    const err = await local
      .chatModel("qwen2.5-1.5b")
      .complete(hello)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as Error).message).toMatch(/LILO_LOCAL_OFFLINE=true/);
    expect((err as Error).message).toContain(dir);
  });
});
