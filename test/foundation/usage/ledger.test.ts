import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLilo, fixedClock, type Lilo } from "../../../core/index.ts";
import { openLiloDatabase, type Db } from "../../../core/foundation/store/db.ts";
import { startFakeAnthropic, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../../fakes/fake-openai.ts";
import { makeTestLilo, isExtraction, NO_EXTRACTION, type TestLilo } from "../../helpers/test-lilo.ts";
import { runCli } from "../../helpers/cli.ts";

/**
 * The usage ledger against the real SDKs and the fake servers: the numbers a
 * server reports land exactly, cached input included; the cost comes from the
 * price table; a model without a price counts tokens only; a server that
 * sends no usage is estimated and marked.
 */
describe("usage ledger", () => {
  let anthropic: FakeAnthropic;
  let openai: FakeOpenAI;
  let t: TestLilo;
  let db: Db;
  const clock = fixedClock("2026-12-03T10:00:00Z");
  const open = (): Lilo => createLilo(t.lilo.config, { embedder: t.embedder, db, clock });

  beforeAll(async () => {
    anthropic = await startFakeAnthropic();
    openai = await startFakeOpenAI();
    t = makeTestLilo(
      {
        ANTHROPIC_API_KEY: "sk-ant-test",
        ANTHROPIC_BASE_URL: anthropic.baseURL,
        OPENAI_API_KEY: "sk-test",
        OPENAI_BASE_URL: openai.baseURL,
        LILO_CHAT_MODEL: "anthropic:claude-sonnet-4-5",
        LILO_EXTRACTION_MODEL: "openai:gpt-4o-mini",
        LILO_USER_NAMES: "chris=Christian",
        LILO_CURRENCY: "EUR",
        LILO_MODEL_PRICES: "my-local-model=0/0/0,claude-sonnet-4-5=3/0.3/15/3.75",
      },
      { clock },
    );
    db = openLiloDatabase(t.lilo.config);
  });
  afterAll(async () => {
    db.close();
    await t.cleanup();
    await anthropic.close();
    await openai.close();
  });

  it("records a chat turn's calls with the providers' exact usage, cached input and cost from the price table", async () => {
    anthropic.replyAlways({
      text: "Schön, dass du da bist!",
      usage: { input_tokens: 100, cache_read_input_tokens: 900, cache_creation_input_tokens: 50, output_tokens: 20 },
    });
    openai.replyAlways((body) =>
      isExtraction(body.messages[0]?.content)
        ? { text: NO_EXTRACTION, usage: { prompt_tokens: 1000, completion_tokens: 50, total_tokens: 1050, prompt_tokens_details: { cached_tokens: 800 } } }
        : "?",
    );
    const r = await t.lilo.handleMessage({ userId: "chris", text: "Hallo Lilo" });
    expect(r.ok).toBe(true);
    await t.lilo.idle();

    const calls = t.lilo.usage.entries();
    expect(calls.map((c) => [c.purpose, c.provider, c.model, c.userId])).toEqual([
      ["chat", "anthropic", "claude-sonnet-4-5", "chris"],
      ["extraction", "openai", "gpt-4o-mini", "chris"],
    ]);
    const [chat, extraction] = calls;
    // Anthropic counts cache reads and writes apart from input_tokens; the ledger's input is the whole prompt.
    expect(chat).toMatchObject({ inputTokens: 1050, cachedInputTokens: 900, cacheWriteTokens: 50, outputTokens: 20, estimated: false, localDay: "2026-12-03" });
    // 100 × 3 + 900 × 0.3 + 50 × 3.75 + 20 × 15, per million
    expect(chat!.cost).toBeCloseTo(0.0010575, 10);
    expect(extraction).toMatchObject({ inputTokens: 1000, cachedInputTokens: 800, cacheWriteTokens: 0, outputTokens: 50, estimated: false });
    // gpt-4o-mini's default price: 200 × 0.15 + 800 × 0.075 + 50 × 0.6, per million
    expect(extraction!.cost).toBeCloseTo(0.00012, 10);
    expect(chat!.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it("keeps a call that cannot be priced or counted, marked as such", async () => {
    const model = t.lilo.models.forRole("chat");
    expect(model.model).toBe("claude-sonnet-4-5");
    await t.lilo.models.forRole("analysis").complete({ system: "", messages: [{ role: "user", content: "x" }], purpose: "analysis" });
    // The analysis role follows the chat model (Anthropic); ask an unpriced model by name through the registry's switch path.
    await t.lilo.models.switchChat("openai:some-unknown-model", clock.now().toISOString());
    openai.reply({ text: "Hallo!", usage: { prompt_tokens: 321, completion_tokens: 12, total_tokens: 333 } });
    await t.lilo.models.forRole("chat").complete({ system: "S", messages: [{ role: "user", content: "Hi" }], purpose: "greeting", userId: "chris" });
    openai.reply({ text: "Eine Antwort ohne Zählung.", usage: null });
    const system = "x".repeat(400);
    await t.lilo.models.forRole("chat").complete({ system, messages: [{ role: "user", content: "y".repeat(40) }], purpose: "diary", userId: "chris" });
    t.lilo.models.resetChat();

    const [unknown, unreported] = t.lilo.usage.entries().slice(-2);
    expect(unknown).toMatchObject({ model: "some-unknown-model", purpose: "greeting", inputTokens: 321, outputTokens: 12, cost: null, estimated: false });
    // 400 + 40 characters of prompt (+4 for the message), 26 of answer, at about four characters a token
    expect(unreported).toMatchObject({ purpose: "diary", estimated: true, cost: null, inputTokens: 100 + 10 + 4, outputTokens: 7 });

    const byModel = t.lilo.usage.summary({ by: "model" });
    const row = byModel.groups.find((g) => g.key === "openai:some-unknown-model")!;
    expect(row).toMatchObject({ calls: 2, cost: null, unpricedCalls: 2, estimatedCalls: 1 });
    expect(byModel.total.unpricedCalls).toBe(2);
    expect(byModel.total.cost).toBeGreaterThan(0);
  });

  it("lilo usage --json prints one object with total (inputTokens, cachedInputTokens, outputTokens, cost) beside the groups", async () => {
    const r = await runCli(open, ["usage", "--by", "role", "--json"]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as {
      by: string;
      currency: string;
      from: string;
      to: string;
      total: Record<string, unknown>;
      groups: { key: string; cost: number | null }[];
    };
    expect(report).toMatchObject({ by: "role", currency: "EUR", from: "2026-12-01", to: "2026-12-03" });
    const all = t.lilo.usage.entries();
    expect(report.total).toMatchObject({
      inputTokens: all.reduce((n, c) => n + c.inputTokens, 0),
      cachedInputTokens: all.reduce((n, c) => n + c.cachedInputTokens, 0),
      outputTokens: all.reduce((n, c) => n + c.outputTokens, 0),
    });
    expect(report.total.cost).toBeCloseTo(
      all.reduce((n, c) => n + (c.cost ?? 0), 0),
      9,
    );
    expect(report.groups.map((g) => g.key).sort()).toEqual(["analysis", "chat", "diary", "extraction", "greeting"]);
    expect(report.groups.find((g) => g.key === "greeting")!.cost).toBeNull();

    const text = await runCli(open, ["usage", "--by", "day"]);
    expect(text.out).toContain("2026-12-03");
    expect(text.out).toContain("2 call(s) of models without a price count tokens only");
    expect(text.out).toContain("1 call(s) estimated");
    const bad = await runCli(open, ["usage", "--from", "3.12.2026"]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('"3.12.2026" is not a day');
    const status = await runCli(open, ["status"]);
    expect(status.out).toMatch(new RegExp(`spend today\\s+${all.length} calls`));
  });

  it("exports the ledger on request", async () => {
    const exported = await runCli(open, ["export", "--plain", "--all", "--store", "rules", "--usage"]);
    const lines = exported.out.split("\n").map((l) => JSON.parse(l) as { store: string; purpose?: string });
    expect(lines.filter((l) => l.store === "usage").map((l) => l.purpose)).toContain("extraction");
  });

  it("keeps the ledger for LILO_USAGE_KEEP_DAYS", async () => {
    const before = t.lilo.usage.entries().length;
    clock.advance(401 * 86_400_000);
    openai.reply({ text: "ok", usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
    await t.lilo.models.forRole("extraction").complete({ system: "", messages: [{ role: "user", content: "x" }], purpose: "extraction" });
    // The first call of a new day prunes what is older than the 400 days kept by default.
    expect(before).toBeGreaterThan(1);
    expect(t.lilo.usage.entries()).toHaveLength(1);
  });
});
