/**
 * What a model call costs: prices per million tokens, the cached part of the
 * prompt priced apart. Defaults for the models the README names (list prices
 * in US dollars, late 2025); LILO_MODEL_PRICES overrides or adds models.
 */

/** One model's price per million tokens. */
interface ModelPrice {
  input: number;
  /** Prompt tokens read from a prompt cache. */
  cachedInput: number;
  output: number;
  /** Prompt tokens written into a prompt cache (Anthropic bills them above input); default the input price. */
  cacheWrite?: number;
}

/** Model name (or "provider:model") → price. */
export type PriceTable = Record<string, ModelPrice>;

/** List prices of the models the README names, per million tokens, in US dollars. */
const DEFAULT_PRICES: PriceTable = {
  "claude-opus-4-1": { input: 15, cachedInput: 1.5, cacheWrite: 18.75, output: 75 },
  "claude-sonnet-4-5": { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 },
  "claude-haiku-4-5": { input: 1, cachedInput: 0.1, cacheWrite: 1.25, output: 5 },
  "gpt-4o": { input: 2.5, cachedInput: 1.25, output: 10 },
  "gpt-4o-mini": { input: 0.15, cachedInput: 0.075, output: 0.6 },
  "deepseek-chat": { input: 0.28, cachedInput: 0.028, output: 0.42 },
  "deepseek-reasoner": { input: 0.28, cachedInput: 0.028, output: 0.42 },
  // Speech models are billed by the characters read out: their "input" is a price per million characters.
  "tts-1": { input: 15, cachedInput: 15, output: 0 },
  "tts-1-hd": { input: 30, cachedInput: 30, output: 0 },
};

/** Providers that run on the owner's machine: every call costs nothing. */
const FREE_PROVIDERS = new Set(["ollama", "local"]);

/**
 * Reads LILO_MODEL_PRICES: comma-separated `model=input/cached/output[/cache-write]`,
 * per million tokens, e.g. `claude-sonnet-4-5=3/0.3/15/3.75,deepseek:deepseek-chat=0.28/0.028/0.42`.
 * Throws a RangeError naming the entry that is wrong.
 */
export function parsePrices(raw: string): PriceTable {
  const table: PriceTable = {};
  for (const part of raw.split(",")) {
    const entry = part.trim();
    if (!entry) continue;
    const eq = entry.lastIndexOf("=");
    const name = eq > 0 ? entry.slice(0, eq).trim() : "";
    const numbers =
      eq > 0
        ? entry
            .slice(eq + 1)
            .split("/")
            .map((n) => n.trim())
        : [];
    const values = numbers.map(Number);
    if (!name || values.length < 3 || values.length > 4 || numbers.some((n) => n === "") || values.some((v) => !Number.isFinite(v) || v < 0)) {
      throw new RangeError(`"${entry}" is not model=input/cached/output[/cache-write] (prices per million tokens, e.g. claude-sonnet-4-5=3/0.3/15)`);
    }
    const [input, cachedInput, output, cacheWrite] = values as [number, number, number, number | undefined];
    table[name] = { input, cachedInput, output, ...(cacheWrite !== undefined ? { cacheWrite } : {}) };
  }
  return table;
}

/** The defaults with the configured prices over them. */
export function priceTable(overrides: string): PriceTable {
  return { ...DEFAULT_PRICES, ...parsePrices(overrides) };
}

/**
 * The price of a model: "provider:model" or the model's name exactly, else
 * the longest name the model starts with (Anthropic answers with dated names,
 * claude-sonnet-4-5-20250929). Local providers cost nothing; undefined when
 * no price is known.
 */
export function priceOf(table: PriceTable, provider: string, model: string): ModelPrice | undefined {
  if (FREE_PROVIDERS.has(provider)) return { input: 0, cachedInput: 0, output: 0 };
  const exact = table[`${provider}:${model}`] ?? table[model];
  if (exact) return exact;
  const prefix = Object.keys(table)
    .filter((name) => !name.includes(":") && model.startsWith(name))
    .sort((a, b) => b.length - a.length)[0];
  return prefix ? table[prefix] : undefined;
}

/** Token counts of one call; the cached and cache-write parts are inside `inputTokens`. */
interface TokenCounts {
  inputTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
}

/** The cost of one call at `price`. */
export function costOf(price: ModelPrice, t: TokenCounts): number {
  const plain = Math.max(0, t.inputTokens - t.cachedInputTokens - t.cacheWriteTokens);
  const perToken =
    plain * price.input + t.cachedInputTokens * price.cachedInput + t.cacheWriteTokens * (price.cacheWrite ?? price.input) + t.outputTokens * price.output;
  return perToken / 1_000_000;
}
