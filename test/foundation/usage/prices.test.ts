import { describe, expect, it } from "vitest";
import { costOf, parsePrices, priceOf, priceTable } from "../../../core/foundation/usage/prices.ts";
import { parseBudget } from "../../../core/foundation/usage/budget-value.ts";

describe("prices and budget values", () => {
  it("reads LILO_MODEL_PRICES, refusing a wrong entry by name", () => {
    expect(parsePrices("my-model=1/0.1/2, ollama:llama3.1:8b=0/0/0/0")).toEqual({
      "my-model": { input: 1, cachedInput: 0.1, output: 2 },
      "ollama:llama3.1:8b": { input: 0, cachedInput: 0, output: 0, cacheWrite: 0 },
    });
    expect(() => parsePrices("gpt-x=1/2")).toThrow('"gpt-x=1/2" is not model=input/cached/output');
    expect(() => parsePrices("gpt-x=1/-2/3")).toThrow(RangeError);
  });

  it("finds a price by provider:model, by name, or by the name a dated model starts with", () => {
    const table = priceTable("deepseek:deepseek-chat=1/1/1");
    expect(priceOf(table, "anthropic", "claude-sonnet-4-5-20250929")).toEqual(table["claude-sonnet-4-5"]);
    expect(priceOf(table, "deepseek", "deepseek-chat")).toEqual({ input: 1, cachedInput: 1, output: 1 });
    expect(priceOf(table, "openrouter", "deepseek-chat")).toEqual(table["deepseek-chat"]);
  });

  it("prices a local provider's models at zero", () => {
    expect(priceOf(priceTable("deepseek:deepseek-chat=1/1/1"), "local", "qwen2.5-7b")).toEqual({ input: 0, cachedInput: 0, output: 0 });
  });

  it("has no price for an unknown model", () => {
    expect(priceOf(priceTable("deepseek:deepseek-chat=1/1/1"), "openai", "some-unknown-model")).toBeUndefined();
  });

  it("prices cached input and cache writes apart from the rest of the prompt", () => {
    const price = { input: 3, cachedInput: 0.3, output: 15, cacheWrite: 3.75 };
    expect(costOf(price, { inputTokens: 1_000_000, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 0 })).toBe(3);
    expect(costOf(price, { inputTokens: 1_000_000, cachedInputTokens: 1_000_000, cacheWriteTokens: 0, outputTokens: 0 })).toBeCloseTo(0.3);
    expect(costOf(price, { inputTokens: 2_000_000, cachedInputTokens: 0, cacheWriteTokens: 1_000_000, outputTokens: 1_000_000 })).toBeCloseTo(3 + 3.75 + 15);
  });

  it("reads a budget as money or tokens", () => {
    expect(parseBudget("2.50")).toEqual({ unit: "cost", amount: 2.5 });
    expect(parseBudget("300k tokens")).toEqual({ unit: "tokens", amount: 300_000 });
    expect(parseBudget("1.5M Tokens")).toEqual({ unit: "tokens", amount: 1_500_000 });
    expect(parseBudget("200,000 tokens")).toEqual({ unit: "tokens", amount: 200_000 });
    expect(() => parseBudget("5k")).toThrow("is not a budget");
    expect(() => parseBudget("lots")).toThrow("is not a budget");
  });

  it("reads empty, off, none or 0 as no budget", () => {
    for (const none of ["", "off", "none", "0"]) expect(parseBudget(none)).toBeUndefined();
  });
});
