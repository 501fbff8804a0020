import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, type AnthropicRequestBody } from "../fakes/fake-anthropic.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../fakes/fake-openai.ts";
import { startFakeWeb, type FakeWeb } from "../fakes/fake-web.ts";
import { makeTestLilo, isExtraction, NO_EXTRACTION, fakeAnthropicEnv, type TestLilo } from "../helpers/test-lilo.ts";
import { fixedClock } from "../../core/index.ts";

const clock = fixedClock("2026-12-02T18:00:00Z");
const RESULTS = [
  {
    title: "Wetter Berlin: Sonne am Wochenende",
    url: "https://wetter.example/berlin",
    snippet: "Samstag 12 Grad und Sonne, Sonntag Regen.",
    date: "2026-12-02T08:00:00Z",
  },
  { title: "Berlin Wochenende Tipps", url: "https://tipps.example/wochenende", snippet: "Weihnachtsmärkte öffnen." },
];
/** The content of the last message as text (tool results are blocks). */
const lastText = (b: AnthropicRequestBody) => JSON.stringify(b.messages.at(-1)?.content ?? "");

describe("web search", () => {
  let web: FakeWeb;
  let t: TestLilo | undefined;
  beforeEach(async () => {
    web = await startFakeWeb({ braveKey: "brave-key-123" });
    web.results = RESULTS;
  });
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
    await web.close();
  });

  it("[SEARCH:] with SearXNG: one search, one log row, the follow-up answers from the results, lilo search-log lists it", async () => {
    const fake = await startFakeAnthropic();
    try {
      fake.replyAlways((b) =>
        isExtraction(b.system)
          ? NO_EXTRACTION
          : lastText(b).includes("Websuche, 2 Treffer")
            ? "Am Samstag wird es sonnig mit 12 Grad. [EMOTION: freude]"
            : "Ich schaue nach. [SEARCH: Wetter Berlin Wochenende]",
      );
      t = makeTestLilo(fakeAnthropicEnv(fake, { SEARXNG_URL: web.url, LILO_NATIVE_TOOLS: "markers" }), { clock });
      const r = await t.lilo.handleMessage({ userId: "chris", text: "Wie wird das Wetter am Wochenende in Berlin?" });
      await t.lilo.idle();

      expect(r).toMatchObject({ ok: true, text: "Am Samstag wird es sonnig mit 12 Grad." });
      expect(fake.requests[0]!.system).toContain("[SEARCH:");
      expect(web.searxngCalls()).toHaveLength(1);
      expect(web.searxngCalls()[0]!.query.get("q")).toBe("Wetter Berlin Wochenende");
      const followUp = fake.requests[1]!.messages.at(-1)!.content;
      expect(followUp).toContain("[SEARCH: Wetter Berlin Wochenende]");
      expect(followUp).toContain("1. Wetter Berlin: Sonne am Wochenende (2026-12-02T08:00:00Z) — https://wetter.example/berlin");
      expect(followUp).toContain("Samstag 12 Grad und Sonne");
      expect(fake.requests).toHaveLength(3); // answer, follow-up, extraction
      expect(t.lilo.lookups.searchLog.list()).toEqual([
        { id: 1, userId: "chris", query: "Wetter Berlin Wochenende", provider: "searxng", resultCount: 2, createdAt: "2026-12-02T18:00:00.000Z" },
      ]);
    } finally {
      await fake.close();
    }
  });

  it("without a provider there is no search: [SEARCH:] is not offered, a stray one is answered as unavailable, nothing is logged", async () => {
    const fake = await startFakeAnthropic();
    try {
      fake.replyAlways((b) => (isExtraction(b.system) ? NO_EXTRACTION : lastText(b).includes("Fundstücke") ? "Weiß ich nicht." : "[SEARCH: Wetter]"));
      t = makeTestLilo(fakeAnthropicEnv(fake, { LILO_NATIVE_TOOLS: "markers" }), { clock });
      await t.lilo.handleMessage({ userId: "chris", text: "Wetter?" });
      expect(fake.requests[0]!.system).not.toContain("[SEARCH:");
      expect(fake.requests[1]!.messages.at(-1)!.content).toContain("Dieses Werkzeug gibt es hier nicht");
      expect(t.lilo.lookups.searchLog.list()).toEqual([]);
    } finally {
      await fake.close();
    }
  });

  it("a failing search is recorded as failed: logged with no result count, reported as not working in the follow-up", async () => {
    const fake = await startFakeAnthropic();
    try {
      fake.replyAlways((b) =>
        isExtraction(b.system) ? NO_EXTRACTION : lastText(b).includes("Fundstücke") ? "Ich konnte gerade nicht nachsehen." : "[SEARCH: Wetter]",
      );
      // A wrong path: the instance answers 404.
      t = makeTestLilo(fakeAnthropicEnv(fake, { SEARXNG_URL: `${web.url}/falsch`, LILO_NATIVE_TOOLS: "markers" }), { clock });
      const r = await t.lilo.handleMessage({ userId: "chris", text: "Wetter?" });
      expect(r.text).toBe("Ich konnte gerade nicht nachsehen.");
      expect(fake.requests[1]!.messages.at(-1)!.content).toContain("Die Suche hat gerade nicht funktioniert");
      expect(t.lilo.lookups.searchLog.list()).toMatchObject([{ query: "Wetter", provider: "searxng", resultCount: null }]);
    } finally {
      await fake.close();
    }
  });

  it("a web_search tool call (Anthropic tool_use) with the Brave API: one search, one log row, three model calls", async () => {
    const fake = await startFakeAnthropic();
    try {
      fake
        .reply({ text: "", toolCalls: [{ id: "toolu_1", name: "web_search", input: { query: "Wetter Berlin" } }] })
        // The answer is built from the tool result: without it the fake says something else.
        .reply((b) => (lastText(b).includes("Samstag 12 Grad und Sonne") ? "Samstag Sonne, Sonntag Regen. [EMOTION: neugierig]" : "Keine Ergebnisse."))
        .replyAlways(NO_EXTRACTION);
      t = makeTestLilo(fakeAnthropicEnv(fake, { BRAVE_SEARCH_API_KEY: "brave-key-123", BRAVE_SEARCH_URL: web.url }), { clock });
      const r = await t.lilo.handleMessage({ userId: "chris", text: "Wie wird das Wetter?" });
      await t.lilo.idle();

      expect(r).toMatchObject({ ok: true, text: "Samstag Sonne, Sonntag Regen.", mood: "neugierig" });
      expect(fake.requests).toHaveLength(3); // tool round, answer, extraction
      const first = fake.requests[0]!;
      expect((first.tools as Array<{ name: string }>).map((x) => x.name)).toEqual([
        "memory_search",
        "recall",
        "diary_search",
        "web_search",
        "fetch_url",
        "set_reminder",
      ]);
      expect(first.system).not.toContain("[SEARCH:"); // tools, not markers
      expect(first.system).not.toContain("[RECALL:");
      expect(first.system).toContain("[EMOTION:"); // store markers stay markers
      expect(web.braveCalls()).toHaveLength(1);
      expect(web.braveCalls()[0]!.headers["x-subscription-token"]).toBe("brave-key-123");
      const second = fake.requests[1]!.messages as unknown as Array<{ role: string; content: Array<Record<string, unknown>> }>;
      expect(second.at(-2)!.content).toEqual([{ type: "tool_use", id: "toolu_1", name: "web_search", input: { query: "Wetter Berlin" } }]);
      const result = second.at(-1)!.content[0]!;
      expect(result).toMatchObject({ type: "tool_result", tool_use_id: "toolu_1" });
      expect(result.content).toContain("1. Wetter Berlin: Sonne am Wochenende");
      expect(result.content).toContain("Samstag 12 Grad"); // <strong> highlight removed
      expect(t.lilo.lookups.searchLog.list()).toMatchObject([{ query: "Wetter Berlin", provider: "brave", resultCount: 2 }]);
    } finally {
      await fake.close();
    }
  });

  it("a web_search tool call through the OpenAI-compatible API (tool_calls): the result goes back as a tool message", async () => {
    const fake: FakeOpenAI = await startFakeOpenAI();
    try {
      fake
        .reply({ text: "", toolCalls: [{ id: "call_1", name: "web_search", input: { query: "Wetter Berlin" } }] })
        .reply((b) => (JSON.stringify(b.messages.at(-1)).includes("Samstag 12 Grad und Sonne") ? "Am Samstag scheint die Sonne." : "Keine Ergebnisse."))
        .replyAlways(NO_EXTRACTION);
      t = makeTestLilo({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: fake.baseURL, LILO_CHAT_MODEL: "openai:gpt-test", SEARXNG_URL: web.url }, { clock });
      const r = await t.lilo.handleMessage({ userId: "chris", text: "Wetter?" });
      await t.lilo.idle();
      expect(r.text).toBe("Am Samstag scheint die Sonne.");
      expect(fake.requests).toHaveLength(3);
      expect(fake.requests[0]!.tool_choice).toBe("auto");
      const msgs = fake.requests[1]!.messages as unknown as Array<Record<string, unknown>>;
      expect(msgs.at(-2)).toMatchObject({ role: "assistant", tool_calls: [{ id: "call_1", type: "function", function: { name: "web_search" } }] });
      expect(msgs.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_1" });
      expect(msgs.at(-1)!.content).toContain("Wetter Berlin: Sonne am Wochenende");
      expect(web.searxngCalls()).toHaveLength(1);
      expect(t.lilo.lookups.searchLog.list()).toHaveLength(1);
    } finally {
      await fake.close();
    }
  });
});
