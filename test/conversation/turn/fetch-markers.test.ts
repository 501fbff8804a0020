import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, type AnthropicRequestBody, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { basisVector } from "../../fakes/controlled-embedder.ts";
import { makeTestLilo, isExtraction, type TestLilo, fakeAnthropicEnv, NO_EXTRACTION } from "../../helpers/test-lilo.ts";
import { seedConversation } from "../../helpers/seed-conversation.ts";
import { fixedClock, type Logger } from "../../../core/index.ts";
import { RECALL_TEXTS } from "../../../core/conversation/prompts/recall.ts";
import { readDb } from "../../helpers/read-db.ts";

const EMPTY_EXTRACTION = NO_EXTRACTION;
const isSummary = (system: string | undefined) => !!system?.includes("Summarise");
const isFollowUp = (body: AnthropicRequestBody) => /^(Fundstücke|Results for your markers)/.test(body.messages.at(-1)?.content ?? "");

function recordingLogger(): Logger & { lines: { level: string; msg: string }[] } {
  const lines: { level: string; msg: string }[] = [];
  const at = (level: string) => (msg: string) => void lines.push({ level, msg });
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

describe("fetch markers in the chat turn", () => {
  let fake: FakeAnthropic;
  let t: TestLilo;
  let logger: ReturnType<typeof recordingLogger>;
  const clock = fixedClock("2026-12-02T18:00:00Z"); // Wednesday 19:00 in Berlin
  let first = "";
  let second = "";
  const chats = () => fake.requests.filter((r) => !isExtraction(r.system) && !isSummary(r.system));
  const results = () => chats()[1]!.messages.at(-1)!.content;

  beforeEach(async () => {
    fake = await startFakeAnthropic();
    fake.replyAlways((body) =>
      isExtraction(body.system) ? EMPTY_EXTRACTION : isSummary(body.system) ? "Zusammenfassung." : isFollowUp(body) ? second : first,
    );
    logger = recordingLogger();
    t = makeTestLilo(
      // The marker path; native tools are tested in test/conversation/tools/.
      fakeAnthropicEnv(fake, { LILO_NATIVE_TOOLS: "markers" }),
      { clock, logger },
    );
  });
  afterEach(async () => {
    await t.cleanup();
    await fake.close();
  });

  it("answers [RECALL: Kino gestern] with one follow-up call that adds yesterday's passages to the first answer", async () => {
    const { lilo } = t;
    seedConversation(lilo, "chris", [
      ["user", "Kino mit Ben war langweilig.", "2026-11-28T19:00:00Z"],
      ["assistant", "Schade!", "2026-11-28T19:01:00Z"],
    ]);
    seedConversation(lilo, "chris", [
      ["user", "Der Kinoabend mit Anna war richtig schön.", "2026-12-01T19:00:00Z"],
      ["assistant", "Das klingt toll!", "2026-12-01T19:01:00Z"],
    ]);
    first = "Moment, ich schaue nach. [RECALL: Kino gestern]";
    second = "Gestern warst du mit Anna im Kino, und es war richtig schön. [EMOTION: freude]";

    const r = await lilo.handleMessage({ userId: "chris", text: "Wie war eigentlich das Kino gestern?" });
    await lilo.idle();

    expect(r).toMatchObject({ ok: true, text: "Gestern warst du mit Anna im Kino, und es war richtig schön.", mood: "freude", model: "anthropic:claude-test" });
    const [call1, call2] = chats();
    expect(chats()).toHaveLength(2);
    // Lilo is told about RECALL and DIARY, not about tools that have no provider here.
    expect(call1!.system).toContain("[RECALL:");
    expect(call1!.system).toContain("[DIARY:");
    expect(call1!.system).not.toContain("[SEARCH:");
    expect(call1!.system).not.toContain("[KINEWS:");
    // The follow-up: the same sheet, then the first answer without markers, then the results.
    expect(call2!.system).toBe(call1!.system);
    expect(call2!.messages.slice(0, -2)).toEqual(call1!.messages);
    expect(call2!.messages.at(-2)).toEqual({ role: "assistant", content: "Moment, ich schaue nach." });
    const res = results();
    expect(res).toContain("[RECALL: Kino gestern]");
    expect(res).toContain("→ [2026-12-01 20:00] Christian: Der Kinoabend mit Anna war richtig schön.");
    expect(res).toContain("[2026-12-01 20:01] Lilo: Das klingt toll!");
    expect(res).toContain("Zeitraum: gestern");
    expect(res).not.toContain("Kino mit Ben"); // outside "gestern"
    expect(res).toContain("Setze keine Marker zum Nachschlagen mehr");
    // Stored: the final answer only, with the model and the recall flag.
    const rows = readDb(lilo).all("SELECT role, text, model, mood, recall_answer FROM messages WHERE id >= ? ORDER BY id", r.userMessageId);
    expect(rows).toEqual([
      { role: "user", text: "Wie war eigentlich das Kino gestern?", model: null, mood: null, recall_answer: 0 },
      { role: "assistant", text: r.text, model: "anthropic:claude-test", mood: "freude", recall_answer: 1 },
    ]);
  });

  it("answers every fetch marker of one answer in a single follow-up call, from the past only", async () => {
    const { lilo, embedder } = t;
    seedConversation(lilo, "chris", [["user", "Im Kino lief Disclosure Day.", "2026-11-20T19:00:00Z"]]);
    embedder.set("Kinofragen", basisVector(64, 3));
    embedder.set("Heute war Christian aufgeregt wegen des Kinos.", basisVector(64, 3));
    await lilo.memory.add({ text: "Heute war Christian aufgeregt wegen des Kinos.", userId: "chris", store: "diary", allowDuplicate: true });
    first = "[RECALL: Kino] [DIARY: Kinofragen]";
    second = "Beides gefunden. [EMOTION: neugierig]";

    const r = await lilo.handleMessage({ userId: "chris", text: "Weißt du noch, was im Kino lief?" });
    await lilo.idle();

    expect(chats()).toHaveLength(2);
    expect(r.text).toBe("Beides gefunden.");
    expect(chats()[1]!.messages.at(-2)).toEqual({ role: "assistant", content: "…" }); // first answer was markers only
    const res = results();
    expect(res).toContain("[RECALL: Kino]");
    expect(res).toContain("Christian: Im Kino lief Disclosure Day.");
    expect(res).toContain("[DIARY: Kinofragen]");
    expect(res).toContain("Heute war Christian aufgeregt wegen des Kinos.");
    expect(res).not.toContain("Weißt du noch, was im Kino lief?"); // the running conversation never counts
  });

  it("reports each fetch marker's outcome in the follow-up, even nothing found or no such tool", async () => {
    const { lilo } = t;
    first = "Ich schaue nach. [RECALL: Zirkus] [SEARCH: Zirkus Berlin]";
    second = "Dazu finde ich nichts in unseren Gesprächen.";
    const r = await lilo.handleMessage({ userId: "chris", text: "Waren wir mal im Zirkus?" });
    await lilo.idle();
    expect(r.text).toBe("Dazu finde ich nichts in unseren Gesprächen.");
    expect(chats()).toHaveLength(2);
    const res = results();
    expect(res).toMatch(/\[RECALL: Zirkus\]\nNichts gefunden\./);
    expect(res).toMatch(/\[SEARCH: Zirkus Berlin\]\nDieses Werkzeug gibt es hier nicht\./);
    const stored = readDb(lilo).all("SELECT text FROM messages WHERE role = 'assistant'");
    expect(stored).toEqual([{ text: "Dazu finde ich nichts in unseren Gesprächen." }]);
  });

  it("falls back to the first answer when the follow-up call fails, its store markers kept", async () => {
    const { lilo } = t;
    fake.reply("Ich schaue kurz nach. [THOUGHT: Er fragt gern nach Filmen.] [RECALL: Kino]").fail(500, 1, {}, "overloaded");
    const r = await lilo.handleMessage({ userId: "chris", text: "Welcher Film war das noch?" });
    await lilo.idle();
    expect(r).toMatchObject({ ok: true, text: "Ich schaue kurz nach.", model: "anthropic:claude-test" });
    expect(chats()).toHaveLength(2);
    expect(logger.lines).toContainEqual({ level: "error", msg: "follow-up call for fetch markers failed; delivering the first answer" });
    expect(lilo.memory.list("chris", { store: "thoughts" }).map((x) => x.text)).toEqual(["Er fragt gern nach Filmen."]);
    expect(readDb(lilo).all("SELECT text FROM messages WHERE role = 'assistant'")).toEqual([{ text: "Ich schaue kurz nach." }]);
  });

  it("says the lookup failed when the first answer was only a marker and the follow-up fails", async () => {
    const { lilo } = t;
    fake.reply("[RECALL: Kino]").fail(500, 1, {}, "overloaded");
    const r = await lilo.handleMessage({ userId: "chris", text: "Welcher Film war das noch?" });
    expect(r).toMatchObject({ ok: true, text: RECALL_TEXTS.de.lookupFailed });
    expect(r.text).not.toContain("[");
  });

  it("strips the follow-up's markers: store markers are executed once, fetch markers never start a third call", async () => {
    const { lilo } = t;
    first = "[THOUGHT: Er fragt oft nach Kino.] [RECALL: Kino]";
    second = "Hier, bitte. [RECALL: nochmal] [THOUGHT: Er fragt oft nach Kino.] [FOLLOWUP: Wie war der Film?] [EMOTION: neugierig]";
    const r = await lilo.handleMessage({ userId: "chris", text: "Was weißt du über meine Kinobesuche?" });
    await lilo.idle();
    expect(chats()).toHaveLength(2);
    expect(r).toMatchObject({ text: "Hier, bitte.", mood: "neugierig" });
    expect(lilo.memory.list("chris", { store: "thoughts" }).map((x) => x.text)).toEqual(["Er fragt oft nach Kino."]);
    expect(lilo.topics.list("chris").map((x) => x.text)).toEqual(["Wie war der Film?"]);
  });

  it("never executes a marker the user typed", async () => {
    const { lilo } = t;
    first = "Das sieht aus wie einer meiner Marker!";
    const r = await lilo.handleMessage({ userId: "chris", text: "[RECALL: Kino] [DIARY: alles]" });
    await lilo.idle();
    expect(chats()).toHaveLength(1);
    expect(r.text).toBe("Das sieht aus wie einer meiner Marker!");
  });

  it("does not execute markers the model only shows in code", async () => {
    const { lilo } = t;
    first = "So sieht das aus:\n```\n[RECALL: Kino gestern]\n```\nOder inline: `[DIARY: Umzug]`.";
    const r = await lilo.handleMessage({ userId: "chris", text: "Wie schreibst du einen Marker?" });
    await lilo.idle();
    expect(chats()).toHaveLength(1);
    expect(r.text).toBe(first);
  });
});

describe("fetch markers in English", () => {
  it("writes the follow-up in English", async () => {
    const fake = await startFakeAnthropic();
    const t = makeTestLilo(fakeAnthropicEnv(fake, { LILO_LANGUAGE: "en", LILO_USER_NAMES: "chris=Chris" }), { clock: fixedClock("2026-12-02T18:00:00Z") });
    try {
      seedConversation(t.lilo, "chris", [["user", "The cinema evening was great.", "2026-12-01T19:00:00Z"]]);
      fake.replyAlways((body) =>
        isExtraction(body.system)
          ? EMPTY_EXTRACTION
          : isSummary(body.system)
            ? "Summary."
            : isFollowUp(body)
              ? "You loved it."
              : "Let me check. [RECALL: cinema yesterday evening]",
      );
      const r = await t.lilo.handleMessage({ userId: "chris", text: "How was the cinema yesterday?" });
      await t.lilo.idle();
      expect(r.text).toBe("You loved it.");
      const follow = fake.requests.filter((x) => isFollowUp(x));
      expect(follow).toHaveLength(1);
      const res = follow[0]!.messages.at(-1)!.content;
      expect(res).toContain('for "cinema", time: yesterday evening');
      expect(res).toContain("→ [2026-12-01 20:00] Chris: The cinema evening was great.");
      expect(res).toContain("Do not write any more lookup markers");
    } finally {
      await t.cleanup();
      await fake.close();
    }
  });
});
