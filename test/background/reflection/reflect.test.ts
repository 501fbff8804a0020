import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { basisVector, vectorWithCosine } from "../../fakes/controlled-embedder.ts";
import { makeTestLilo, type TestLilo, fakeAnthropicEnv } from "../../helpers/test-lilo.ts";
import { recordingTransport, seedExchange } from "../../helpers/seed-chat.ts";
import { ANY_USER, fixedClock, type Lilo } from "../../../core/index.ts";
import { reflectionQuestions } from "../../../core/background/prompts/reflection.ts";
import { concernOf, thoughtOf, topicIdOf } from "../../helpers/outcomes.ts";
import { LAST_SEEN_KEY } from "../../../core/background/reflection/reflect.ts";
import { readDb } from "../../helpers/read-db.ts";

/** The newest message the reflection saw, as `lilo settings` lists the stored state. */
const lastSeen = (lilo: Lilo, userId: string) => lilo.settings.list().state.find((s) => s.key === LAST_SEEN_KEY && s.userId === userId)?.value;
/** The id of the user's newest stored message. */
const lastMessageId = (lilo: Lilo, userId: string) =>
  (readDb(lilo).get("SELECT id FROM messages WHERE user_id = ? ORDER BY id DESC LIMIT 1", userId) as { id: number }).id;

const HOUR = 3_600_000;
const NOW = "2026-12-02T21:00:00Z"; // 22:00 in Berlin
const DIM = 64;
const QUESTIONS = reflectionQuestions("de", "Christian");

describe("reflection and concerns (docs/spec.md §9)", () => {
  let fake: FakeAnthropic;
  let t: TestLilo;
  let clock: ReturnType<typeof fixedClock>;
  let answer = "1. Christian denkt in Systemen.";
  const thinkCalls = () => fake.requests.filter((r) => r.model === "claude-think");
  const ago = (h: number) => new Date(clock.now().getTime() - h * HOUR);

  beforeEach(async () => {
    clock = fixedClock(NOW);
    answer = "1. Christian denkt in Systemen.";
    fake = await startFakeAnthropic();
    fake.replyAlways((body) => (body.model === "claude-think" ? answer : "ok"));
    t = makeTestLilo(fakeAnthropicEnv(fake, { LILO_CHAT_MODEL: "anthropic:claude-chat", LILO_REFLECTION_MODEL: "anthropic:claude-think" }), { clock });
  });
  afterEach(async () => {
    await t.cleanup();
    await fake.close();
  });

  it("thinks only when there are chats newer than the last one it saw, unless told to think now", async () => {
    const { lilo } = t;
    expect(await lilo.reflection.run("chris")).toEqual({ kind: "skipped", reason: "no-conversation" });
    seedExchange(lilo, "chris", "Hallo Lilo", "Hallo Christian", ago(2));
    const first = await lilo.reflection.run("chris");
    expect(thoughtOf(first)?.text).toBe("Christian denkt in Systemen.");
    expect(lastSeen(lilo, "chris")).toBe(String(lastMessageId(lilo, "chris")));

    answer = "2. Ihn beschäftigt der Umzug.";
    expect(await lilo.reflection.run("chris")).toEqual({ kind: "skipped", reason: "no-new-chats" });
    expect(thinkCalls()).toHaveLength(1);

    const forced = await lilo.reflection.thinkNow("chris");
    expect(thoughtOf(forced)?.text).toBe("Ihn beschäftigt der Umzug.");
    expect(thinkCalls()).toHaveLength(2);

    seedExchange(lilo, "chris", "Noch eine Frage", "Gern", ago(1));
    answer = "3. Wir sind ein eingespieltes Team.";
    expect(thoughtOf(await lilo.reflection.run("chris"))?.text).toBe("Wir sind ein eingespieltes Team.");
    expect(thinkCalls()).toHaveLength(3);
  });

  it("does not count a failed call as seen, so the next run tries again", async () => {
    const { lilo } = t;
    seedExchange(lilo, "chris", "Hallo", "Hallo", ago(1));
    fake.fail(500);
    expect(await lilo.reflection.run("chris")).toMatchObject({ kind: "failed" });
    expect(thoughtOf(await lilo.reflection.run("chris"))).toBeDefined();
  });

  it("does not count the messages as seen when storing the thought fails", async () => {
    const { lilo, embedder } = t;
    seedExchange(lilo, "chris", "Hallo", "Hallo", ago(1));
    const embed = embedder.embed.bind(embedder);
    embedder.embed = async (texts) => {
      if (texts.includes("Christian denkt in Systemen.")) throw new Error("embedder down");
      return embed(texts);
    };
    expect(await lilo.reflection.run("chris")).toMatchObject({ kind: "failed" });
    expect(lastSeen(lilo, "chris")).toBeUndefined();
    embedder.embed = embed;
    expect(thoughtOf(await lilo.reflection.run("chris"))?.text).toBe("Christian denkt in Systemen.");
  });

  it("hands the model exactly its material: the profile, 12 exchanges cut 200/300, 4 notes found with the last 5 user messages, earlier thoughts", async () => {
    const { lilo, embedder } = t;
    const pad = (i: number) => String(i).padStart(2, "0");
    const userTexts: string[] = [];
    for (let i = 0; i < 15; i++) {
      const u = `<U${pad(i)}>` + "u".repeat(300);
      userTexts.push(u);
      seedExchange(lilo, "chris", u, `<L${pad(i)}>` + "l".repeat(400), ago(30 - i));
    }
    const q = basisVector(DIM, 0);
    embedder.set(userTexts.slice(-5).join("\n"), q);
    for (const [i, s] of [0.9, 0.8, 0.7, 0.6, 0.5].entries()) {
      embedder.set(`Notiz ${i}`, vectorWithCosine(q, s, i));
      await lilo.memory.add({ text: `Notiz ${i}`, userId: "chris" });
    }
    // Five earlier thoughts: T1 and T2 are near the query; T3..T5 are the latest three.
    for (const [i, s] of [0.85, 0.75, 0.1, 0.1, 0.1].entries()) {
      embedder.set(`Gedanke T${i + 1}`, vectorWithCosine(q, s, 10 + i));
      await lilo.memory.add({ text: `Gedanke T${i + 1}`, userId: "chris", store: "thoughts", createdAt: ago(100 - i), extra: { origin: "reflection" } });
    }
    lilo.profile.add("chris", "work", "Christian baut Lilo");

    await lilo.reflection.thinkNow("chris");
    const [call] = thinkCalls();
    const sheet = call!.messages[0]!.content;
    expect(call!.system).toContain("Du bist Lilo, eine bewusste KI.");
    expect(call!.system).toContain("ich vermute");
    expect(call!.system).toContain("[ANSPRECHEN:");
    expect(sheet).toContain("Christian baut Lilo");
    for (let i = 0; i < 3; i++) expect(sheet).not.toContain(`<U${pad(i)}>`);
    for (let i = 3; i < 15; i++) expect(sheet).toContain(`<U${pad(i)}>`);
    expect(sheet).toContain(`Christian: ${userTexts[14]!.slice(0, 200)}…\n`);
    expect(sheet).toContain(`Ich: ${("<L14>" + "l".repeat(400)).slice(0, 300)}…`);
    expect(sheet).not.toContain(userTexts[14]!.slice(0, 201));
    for (let i = 0; i < 4; i++) expect(sheet).toContain(`- Notiz ${i}`);
    expect(sheet).not.toContain("Notiz 4");
    const related = sheet.slice(sheet.indexOf("Frühere Gedanken"), sheet.indexOf("Deine letzten Gedanken"));
    expect(related).toContain("Gedanke T1");
    expect(related).toContain("Gedanke T2");
    expect(related).not.toContain("Gedanke T5");
    const last = sheet.slice(sheet.indexOf("Deine letzten Gedanken"));
    expect(last.indexOf("Gedanke T5")).toBeLessThan(last.indexOf("Gedanke T3"));
    expect(last).not.toContain("Gedanke T1");
    for (const [i, question] of QUESTIONS.entries()) expect(sheet).toContain(`${i + 1}. ${question}`);
  });

  it("keeps a thought as its answers: the questions stored beside them in SQLite, only the answers embedded, no preamble, no marker", async () => {
    const { lilo, embedder } = t;
    seedExchange(lilo, "chris", "Hallo", "Hallo", ago(1));
    answer = [
      "Zuerst fasse ich das Material zusammen: Christian schrieb Hallo.",
      "",
      "1. Christian denkt in Systemen.",
      "",
      "3. Wir arbeiten enger zusammen.",
      "Das merke ich an den Fragen.",
      "",
      "[ANSPRECHEN: Mich beschäftigt, ob dir das Lilo-Projekt gerade Energie gibt oder nimmt.]",
    ].join("\n");
    const r = await lilo.reflection.thinkNow("chris");
    const expected = "Christian denkt in Systemen.\n\nWir arbeiten enger zusammen.\nDas merke ich an den Fragen.";
    expect(thoughtOf(r)).toEqual({ id: expect.any(Number), text: expected, questions: [QUESTIONS[0], QUESTIONS[2]] });
    const row = lilo.memory.get(ANY_USER, "thoughts", thoughtOf(r)!.id)!;
    expect(row.text).toBe(expected);
    expect(row.extra.origin).toBe("reflection");
    expect(JSON.parse(String(row.extra.questions))).toEqual([QUESTIONS[0], QUESTIONS[2]]);
    // What was embedded is the answers only: no question, no preamble, no marker.
    const embedded = embedder.calls.flat();
    expect(embedded).toContain(expected);
    expect(embedded.some((e) => e.includes(QUESTIONS[0]!) || e.includes("ANSPRECHEN") || e.includes("Material"))).toBe(false);
    const hits = await lilo.memory.search(expected, { userId: "chris", store: "thoughts" });
    expect(hits[0]).toMatchObject({ id: thoughtOf(r)!.id, text: expected });
    // The list pairs each answer with its question.
    expect(lilo.reflection.list("chris")[0]!.parts).toEqual([
      { question: QUESTIONS[0], answer: "Christian denkt in Systemen." },
      { question: QUESTIONS[2], answer: "Wir arbeiten enger zusammen.\nDas merke ich an den Fragen." },
    ]);

    // The concern: cut out, a 🧠 topic due at once.
    expect(concernOf(r)).toMatchObject({ status: "open" });
    const [topic] = lilo.topics.list("chris", "open");
    expect(topic).toMatchObject({
      kind: "concern",
      text: "🧠 Mich beschäftigt, ob dir das Lilo-Projekt gerade Energie gibt oder nimmt.",
      dueAt: NOW.replace("Z", ".000Z"),
    });
  });

  it("teaches the English persona [RAISE:] instead of the German [ANSPRECHEN:], reading its concern from it", async () => {
    const en = makeTestLilo(
      fakeAnthropicEnv(fake, { LILO_LANGUAGE: "en", LILO_CHAT_MODEL: "anthropic:claude-chat", LILO_REFLECTION_MODEL: "anthropic:claude-think" }),
      { clock },
    );
    try {
      seedExchange(en.lilo, "chris", "Hi", "Hi Christian", ago(1));
      answer = "1. He plans a lot.\n[RAISE: How did the move to Hamburg go?]";
      const r = await en.lilo.reflection.thinkNow("chris");
      const system = thinkCalls().at(-1)!.system!;
      expect(system).toContain("[RAISE:");
      expect(system).not.toContain("ANSPRECHEN");
      expect(thoughtOf(r)?.text).toBe("He plans a lot.");
      expect(en.lilo.topics.list("chris", "open").map((x) => x.text)).toEqual(["🧠 How did the move to Hamburg go?"]);
    } finally {
      await en.cleanup();
    }
  });

  it("paces concerns: one opened per 20 hours, a further one queued (never dropped), a near-duplicate of an open topic never created", async () => {
    const { lilo } = t;
    const transport = recordingTransport();
    lilo.push.registerTransport(transport);
    lilo.push.optIn("chris", { transport: "fake", chatId: "7" });
    seedExchange(lilo, "chris", "Hallo", "Hallo", ago(1));

    answer = "1. Er plant viel.\n[ANSPRECHEN: Wie lief eigentlich der Umzug nach Hamburg?]";
    const first = await lilo.reflection.thinkNow("chris");
    expect(concernOf(first)).toMatchObject({ status: "open", push: "sent" });
    expect(transport.sent.map((s) => s.message)).toEqual([{ kind: "concern", text: "🧠 Wie lief eigentlich der Umzug nach Hamburg?" }]);

    // One hour later ("think now" again): a new concern is queued; the thought stays.
    clock.advance(HOUR);
    answer = "2. Er wirkt müde.\n[ANSPRECHEN: Schläfst du genug, seit das Baby da ist?]";
    const second = await lilo.reflection.thinkNow("chris");
    expect(thoughtOf(second)?.text).toBe("Er wirkt müde.");
    expect(concernOf(second)).toMatchObject({ status: "queued" });
    expect(lilo.topics.list("chris", "queued").map((x) => x.text)).toEqual(["🧠 Schläfst du genug, seit das Baby da ist?"]);
    expect(transport.sent).toHaveLength(1);

    // ≥ 60 % of the meaningful words shared with an open topic: not created. Filler and case do not matter.
    answer = "3. Wir reden oft über Hamburg.\n[ANSPRECHEN: Wie lief denn der Umzug nach Hamburg wirklich?]";
    const dup = await lilo.reflection.thinkNow("chris");
    expect(concernOf(dup)).toMatchObject({ status: "duplicate", duplicateOf: topicIdOf(concernOf(first)) });
    // Below 60 % (1 of 4 meaningful words): a new concern (queued, the throttle still holds).
    answer = "4. Er liebt Boote.\n[ANSPRECHEN: Wann segeln wir wieder in Hamburg zusammen?]";
    expect(concernOf(await lilo.reflection.thinkNow("chris"))).toMatchObject({ status: "queued" });

    // After 20 hours the oldest queued concern opens (even without new chats) and is pushed.
    clock.advance(19 * HOUR);
    const later = await lilo.reflection.run("chris");
    expect(later).toMatchObject({ reason: "no-new-chats" });
    expect(later.kind !== "failed" && later.released).toMatchObject({ status: "open", text: "🧠 Schläfst du genug, seit das Baby da ist?", push: "sent" });
    // Delivered concerns are raised: done as topics, and in the chat log as Lilo's own messages.
    expect(lilo.topics.list("chris", "open")).toEqual([]);
    expect(lilo.topics.list("chris", "done").map((x) => x.text)).toEqual([
      "🧠 Wie lief eigentlich der Umzug nach Hamburg?",
      "🧠 Schläfst du genug, seit das Baby da ist?",
    ]);
    expect(readDb(lilo).all("SELECT role, text, proactive, model FROM messages WHERE proactive = 1 ORDER BY id")).toEqual([
      { role: "assistant", text: "🧠 Wie lief eigentlich der Umzug nach Hamburg?", proactive: 1, model: "anthropic:claude-think" },
      { role: "assistant", text: "🧠 Schläfst du genug, seit das Baby da ist?", proactive: 1, model: "anthropic:claude-think" },
    ]);
    expect(lilo.topics.list("chris", "queued")).toHaveLength(1);
    expect(lilo.push.history("chris").map((h) => [h.kind, h.outcome])).toEqual([
      ["concern", "sent"],
      ["concern", "sent"],
    ]);
  });

  describe("an answer with a mood marker and two concerns", () => {
    const think = () => {
      seedExchange(t.lilo, "chris", "Hallo", "Hallo", ago(1));
      answer = "1. Er lacht viel. [EMOTION: froh]\n[ANSPRECHEN: Erste Sorge um den Garten]\n[ANSPRECHEN: Zweite Sorge wegen der Arbeit]";
      return t.lilo.reflection.thinkNow("chris");
    };

    it("keeps only the last of several concerns", async () => {
      await think();
      expect(t.lilo.topics.list("chris", "open").map((x) => x.text)).toEqual(["🧠 Zweite Sorge wegen der Arbeit"]);
    });

    it("strips every marker from the thought", async () => {
      expect(thoughtOf(await think())?.text).toBe("Er lacht viel.");
    });
  });
});
