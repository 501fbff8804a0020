import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../../fakes/fake-openai.ts";
import { makeTestLilo, isExtraction, NO_EXTRACTION, fakeAnthropicEnv, type TestLilo } from "../../helpers/test-lilo.ts";
import { seedConversation } from "../../helpers/seed-conversation.ts";
import { fixedClock } from "../../../core/index.ts";
import { readDb } from "../../helpers/read-db.ts";

const clock = fixedClock("2026-12-02T18:00:00Z");

describe("native tool calls in the chat turn", () => {
  let t: TestLilo | undefined;
  const fakes: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
    for (const f of fakes.splice(0)) await f.close();
  });
  const anthropic = async () => {
    const f = await startFakeAnthropic();
    fakes.push(f);
    return f;
  };

  it("a tool round costs exactly one more model call", async () => {
    const fake: FakeAnthropic = await anthropic();
    fake.replyAlways((b) => (isExtraction(b.system) ? NO_EXTRACTION : "Hallo Christian! [EMOTION: freude]"));
    t = makeTestLilo(fakeAnthropicEnv(fake), { clock });
    await t.lilo.handleMessage({ userId: "chris", text: "Hallo" });
    await t.lilo.idle();
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[0]!.tools).toBeDefined();

    seedConversation(t.lilo, "chris", [["user", "Im Kino lief Disclosure Day.", "2026-11-20T19:00:00Z"]]);
    fake.requests.length = 0;
    fake
      .reply({ text: "Moment. [EMOTION: neugierig]", toolCalls: [{ id: "toolu_r", name: "recall", input: { query: "Kino" } }] })
      .reply("Disclosure Day lief im Kino.");
    const r = await t.lilo.handleMessage({ userId: "chris", text: "Was lief im Kino?" });
    await t.lilo.idle();
    expect(r.text).toBe("Disclosure Day lief im Kino.");
    expect(r.mood).toBe("neugierig"); // a store marker written next to the tool call still counts
    expect(fake.requests).toHaveLength(3);
    const result = (fake.requests[1]!.messages.at(-1)!.content as unknown as Array<{ content: string }>)[0]!.content;
    // The same text the [RECALL:] follow-up shows.
    expect(result).toContain("Wörtliche Suche in euren früheren Gesprächen nach „Kino“");
    expect(result).toContain("→ [2026-11-20 20:00] Christian: Im Kino lief Disclosure Day.");
    // Written with chat-log passages: later searches rank this answer below the original (docs/spec.md §5.1).
    const answer = readDb(t.lilo).get("SELECT recall_answer FROM messages WHERE id = ?", r.answerMessageId) as { recall_answer: number };
    expect(answer.recall_answer).toBe(1);
  });

  it("stops at its bound: after LILO_TOOL_ROUNDS rounds the last call forbids tools", async () => {
    const fake = await anthropic();
    let n = 0;
    fake.replyAlways((b) =>
      isExtraction(b.system) ? NO_EXTRACTION : { text: `Runde ${++n}`, toolCalls: [{ name: "diary_search", input: { query: `x${n}` } }] },
    );
    t = makeTestLilo(fakeAnthropicEnv(fake, { LILO_TOOL_ROUNDS: "2" }), { clock });
    const r = await t.lilo.handleMessage({ userId: "chris", text: "Such endlos" });
    await t.lilo.idle();
    const chats = fake.requests.filter((b) => !isExtraction(b.system));
    expect(chats).toHaveLength(3); // two tool rounds, then one call without tools
    expect(chats.map((c) => c.tool_choice)).toEqual([{ type: "auto" }, { type: "auto" }, { type: "none" }]);
    expect(r).toMatchObject({ ok: true, text: "Runde 3" });
  });

  it("a tool call that cannot run is reported to the model, not thrown", async () => {
    const fake = await anthropic();
    fake
      .reply({
        text: "",
        toolCalls: [
          { id: "a", name: "recall", input: {} },
          { id: "b", name: "shell", input: { cmd: "ls" } },
        ],
      })
      .reply("Gut.")
      .replyAlways(NO_EXTRACTION);
    t = makeTestLilo(fakeAnthropicEnv(fake), { clock });
    const r = await t.lilo.handleMessage({ userId: "chris", text: "?" });
    expect(r.text).toBe("Gut.");
    const results = fake.requests[1]!.messages.at(-1)!.content as unknown as Array<{ content: string; is_error: boolean }>;
    expect(results.map((x) => [x.is_error, x.content.split(":")[0]])).toEqual([
      [true, "invalid arguments for recall"],
      [true, "unknown tool shell"],
    ]);
  });

  it("auto: a model whose API refuses tools falls back to markers for good", async () => {
    const fake: FakeOpenAI = await startFakeOpenAI();
    fakes.push(fake);
    fake
      .fail(400, 1, {}, "registry.ollama.ai/library/gemma:2b does not support tools")
      .replyAlways((b) => (b.response_format ? NO_EXTRACTION : "Hallo. [EMOTION: freude]"));
    t = makeTestLilo({ OLLAMA_BASE_URL: fake.baseURL, LILO_CHAT_MODEL: "ollama:gemma:2b" }, { clock });
    const r = await t.lilo.handleMessage({ userId: "chris", text: "Hallo" });
    expect(r).toMatchObject({ ok: true, text: "Hallo." });
    expect(fake.requests[0]!.tools).toBeDefined();
    expect(fake.requests[1]!.tools).toBeUndefined();
    expect(fake.requests[1]!.messages[0]!.content).toContain("[RECALL:");
    await t.lilo.handleMessage({ userId: "chris", text: "Noch da?" });
    await t.lilo.idle();
    const later = fake.requests.filter((b) => !b.response_format).at(-1)!;
    expect(later.tools).toBeUndefined();
    expect(later.messages[0]!.content).toContain("[RECALL:");
    expect(t.lilo.lookups.tools.isNative({ provider: "ollama", model: "gemma:2b" })).toBe(false);
  });
});
