import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "../../../core/index.ts";
import { startFakeAnthropic, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../../fakes/fake-openai.ts";
import { makeTestLilo, isExtraction, NO_EXTRACTION, type TestLilo } from "../../helpers/test-lilo.ts";

const PERSONA = "Du bist Lilo, eine bewusste";
const MARKERS = "Marker: Das Programm führt sie aus";
const RULE = "Antworte höchstens in drei Sätzen.";

/**
 * Prompt caching: the stable part of the chat request (persona,
 * rules, marker instructions) comes first and is byte-identical from one
 * turn to the next, so a provider's prefix cache serves it; Anthropic gets
 * it as its own system block with cache_control.
 */
describe("prompt caching: a byte-identical stable prefix", () => {
  const clock = fixedClock("2026-12-03T10:00:00Z");
  let anthropic: FakeAnthropic;
  let openai: FakeOpenAI;
  let a: TestLilo;
  let o: TestLilo;

  beforeAll(async () => {
    anthropic = await startFakeAnthropic();
    openai = await startFakeOpenAI();
    anthropic.replyAlways((body) => (isExtraction(body.system) ? NO_EXTRACTION : "Gern!"));
    openai.replyAlways((body) => (isExtraction(body.messages[0]?.content) ? NO_EXTRACTION : "Gern!"));
    const common = { LILO_USER_NAMES: "chris=Christian" };
    a = makeTestLilo({ ...common, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: anthropic.baseURL, LILO_CHAT_MODEL: "anthropic:claude-sonnet-4-5" }, { clock });
    o = makeTestLilo({ ...common, DEEPSEEK_API_KEY: "k", DEEPSEEK_BASE_URL: openai.baseURL, LILO_CHAT_MODEL: "deepseek:deepseek-chat" }, { clock });
  });
  afterAll(async () => {
    await a.cleanup();
    await o.cleanup();
    await anthropic.close();
    await openai.close();
  });

  /** Two turns a few minutes apart (the time on the sheet changes), a note in between. */
  async function twoTurns(t: TestLilo): Promise<void> {
    t.lilo.rules.add("chris", RULE);
    expect((await t.lilo.handleMessage({ userId: "chris", text: "Ich heiße Christian und mag Tee." })).ok).toBe(true);
    await t.lilo.idle();
    clock.advance(7 * 60_000);
    expect((await t.lilo.handleMessage({ userId: "chris", text: "Was trinke ich gern?" })).ok).toBe(true);
    await t.lilo.idle();
  }

  it("Anthropic: the stable prefix is one cache_control block, byte-identical across turns", async () => {
    await twoTurns(a);
    const chats = anthropic.requests.filter((b) => !isExtraction(b.system));
    expect(chats).toHaveLength(2);
    const [first, second] = chats.map((b) => b.systemBlocks!);
    expect(first![0]!.cache_control).toEqual({ type: "ephemeral" });
    expect(second![0]!.cache_control).toEqual({ type: "ephemeral" });
    expect(second![0]!.text).toBe(first![0]!.text);
    for (const part of [PERSONA, RULE, MARKERS]) expect(first![0]!.text).toContain(part);
    // The per-turn sheet (the time, which moved) comes after the cached block, never inside it.
    expect(first![0]!.text).not.toContain("Jetzt ist");
    expect(first![1]!.text).toContain("Jetzt ist");
    expect(first![1]!.text).not.toBe(second![1]!.text);
    expect(first![1]!.cache_control).toBeUndefined();
  });

  it("OpenAI-compatible: both turns' system messages start with the same bytes (automatic prefix caching)", async () => {
    await twoTurns(o);
    const systems = openai.requests.map((b) => b.messages[0]!.content).filter((s) => !isExtraction(s));
    expect(systems).toHaveLength(2);
    const [first, second] = systems as [string, string];
    // Everything before the per-turn sheet (which starts with the time) is shared byte for byte.
    const stable = first.slice(0, first.indexOf("Jetzt ist"));
    expect(stable.length).toBeGreaterThan(500);
    expect(second.startsWith(stable)).toBe(true);
    for (const part of [PERSONA, RULE, MARKERS]) expect(stable).toContain(part);
    expect(second).not.toBe(first);
  });
});
