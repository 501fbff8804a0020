import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeOpenAI, type FakeOpenAI } from "../../fakes/fake-openai.ts";
import { startFakeAnthropic, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { basisVector, vectorWithCosine } from "../../fakes/controlled-embedder.ts";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";
import { readDb } from "../../helpers/read-db.ts";

const isExtraction = (messages: { role: string; content: string }[]) => messages[0]?.role === "system" && messages[0].content.includes("You extract memories");

describe("a chat turn against a fake OpenAI-compatible server (e.g. a local Ollama)", () => {
  let openai: FakeOpenAI;
  let anthropic: FakeAnthropic;
  let t: TestLilo;

  beforeEach(async () => {
    openai = await startFakeOpenAI();
    anthropic = await startFakeAnthropic();
    openai.replyAlways((body) =>
      isExtraction(body.messages as { role: string; content: string }[])
        ? JSON.stringify({ facts: ["Christian kocht gern Pasta"], content: [], profile: [], important: [] })
        : "Klingt lecker! [EMOTION: freude]",
    );
    anthropic.replyAlways("Hallo von Claude.");
    t = makeTestLilo({
      OPENAI_BASE_URL: openai.baseURL, // a local server: no key needed
      LILO_CHAT_MODEL: "openai:llama3.1",
      ANTHROPIC_API_KEY: "sk-ant-test",
      ANTHROPIC_BASE_URL: anthropic.baseURL,
      LILO_USER_NAMES: "chris=Christian",
      LILO_LANGUAGE: "en",
    });
  });
  afterEach(async () => {
    await t.cleanup();
    await openai.close();
    await anthropic.close();
  });

  it("runs a whole turn against an OpenAI-compatible server", async () => {
    const { lilo, embedder } = t;
    const q = basisVector(64, 0);
    embedder.set("I'm cooking pasta tonight", q);
    embedder.set("Christian isst gern Italienisch", vectorWithCosine(q, 0.7, 1));
    await lilo.memory.add({ text: "Christian isst gern Italienisch", userId: "chris" });

    const r = await lilo.handleMessage({ userId: "chris", text: "I'm cooking pasta tonight" });
    await lilo.idle();
    expect(r).toMatchObject({ ok: true, text: "Klingt lecker!", model: "openai:llama3.1", mood: "freude" });

    const chat = openai.requests.find((b) => !isExtraction(b.messages as { role: string; content: string }[]))!;
    expect(chat.model).toBe("llama3.1");
    const [system, ...rest] = chat.messages as { role: string; content: string }[];
    expect(system!.role).toBe("system");
    expect(system!.content).toContain("You are Lilo");
    expect(system!.content.indexOf("Relevant memories of Christian")).toBeGreaterThan(system!.content.indexOf("You are Lilo"));
    expect(system!.content).toContain("- Christian isst gern Italienisch");
    expect(rest).toEqual([{ role: "user", content: "I'm cooking pasta tonight" }]);
    expect(openai.http.every((h) => h.headers.authorization === "Bearer not-needed")).toBe(true);

    const extraction = openai.requests.find((b) => isExtraction(b.messages as { role: string; content: string }[]))!;
    expect(extraction.response_format).toEqual({ type: "json_object" });
    expect(lilo.memory.list("chris", { store: "notes" }).map((n) => n.text)).toContain("Christian kocht gern Pasta");
  });

  it("switches the chat model at run time, memory untouched, each answer labelled with its model", async () => {
    const { lilo } = t;
    await lilo.handleMessage({ userId: "chris", text: "Hi" });
    await lilo.idle();
    const notesBefore = lilo.memory.list("chris", { store: "notes" }).map((n) => n.text);
    await lilo.models.switchChat("anthropic:claude-test", lilo.clock.now().toISOString());
    const r = await lilo.handleMessage({ userId: "chris", text: "Still there?" });
    expect(r.model).toBe("anthropic:claude-test");
    expect(anthropic.requests[0]!.model).toBe("claude-test");
    // The same memory is on Claude's cheat sheet: one Lilo, one memory.
    expect(anthropic.requests[0]!.messages.map((m) => m.content)).toEqual(["Hi", "Klingt lecker!", "Still there?"]);
    await lilo.idle();
    // Every role without its own setting moves with the switch: the extraction after this turn ran on Claude too.
    expect(anthropic.requests.length).toBeGreaterThanOrEqual(2);
    expect(new Set(anthropic.requests.map((b) => b.model))).toEqual(new Set(["claude-test"]));
    expect(lilo.models.forRole("extraction").model).toBe("claude-test");
    expect(lilo.models.forRole("diary").model).toBe("claude-test");
    const models = readDb(lilo).all("SELECT model FROM messages WHERE role = 'assistant' ORDER BY id");
    expect(models).toEqual([{ model: "openai:llama3.1" }, { model: "anthropic:claude-test" }]);
    expect(lilo.memory.list("chris", { store: "notes" }).map((n) => n.text)).toEqual(expect.arrayContaining(notesBefore));
    // A provider that cannot be used is refused with a clear error, and nothing changes.
    await expect(lilo.models.switchChat("deepseek:deepseek-chat", lilo.clock.now().toISOString())).rejects.toThrow(/DEEPSEEK_API_KEY/);
    await expect(lilo.models.switchChat("nirgendwo:x", lilo.clock.now().toISOString())).rejects.toThrow(/Unknown provider "nirgendwo"/);
    expect(lilo.models.chatSpec()).toEqual({ provider: "anthropic", model: "claude-test" });
    // A bare model name keeps the provider; Ollama tags with colons need the provider named.
    expect(await lilo.models.switchChat("claude-other", lilo.clock.now().toISOString())).toEqual({ provider: "anthropic", model: "claude-other" });
    expect(await lilo.models.switchChat("openai:llama3.1:8b", lilo.clock.now().toISOString())).toEqual({ provider: "openai", model: "llama3.1:8b" });
    // The conversation started with the OpenAI model.
    expect(
      (
        readDb(lilo).get("SELECT start_model FROM conversations WHERE user_id = 'chris' ORDER BY last_message_at DESC, id DESC LIMIT 1") as
          { start_model: string | null } | undefined
      )?.start_model,
    ).toBe("openai:llama3.1");
  });

  it("answers a connection failure with a clear error, leaving no half-written rows", async () => {
    await openai.close();
    const r = await t.lilo.handleMessage({ userId: "chris", text: "Hello?" });
    expect(r.ok).toBe(false);
    expect(r.text).toContain("Your message is saved");
    expect(r.error).toMatchObject({ code: "provider", retryable: true });
    expect(readDb(t.lilo).all("SELECT role FROM messages")).toEqual([{ role: "user" }]);
    openai = await startFakeOpenAI(); // afterEach closes it
  });
});
