import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { ControlledEmbedder, basisVector, vectorWithCosine } from "../../fakes/controlled-embedder.ts";
import { makeTestLilo, isExtraction, type TestLilo, fakeAnthropicEnv, NO_EXTRACTION } from "../../helpers/test-lilo.ts";
import { fixedClock } from "../../../core/index.ts";
import { seedDb } from "../../helpers/seed-db.ts";
import { ShortTermStore } from "../../../core/foundation/store/short-term.ts";
import { readDb } from "../../helpers/read-db.ts";

const DIM = 64;
const MSG = "Wollen wir heute Abend ins Kino?";
const q = basisVector(DIM, 0);

describe("a chat turn against a fake Anthropic server", () => {
  let fake: FakeAnthropic;
  let t: TestLilo;
  const clock = fixedClock("2026-12-02T18:00:00Z");
  let extraction = NO_EXTRACTION;

  beforeEach(async () => {
    fake = await startFakeAnthropic();
    fake.replyAlways((body) => (isExtraction(body.system) ? extraction : "Gern, Christian! [EMOTION: froh]"));
    // Vectors under MiniLM's name, so its thresholds (dedup at 0.82) apply.
    t = makeTestLilo(fakeAnthropicEnv(fake), { clock, embedder: new ControlledEmbedder(DIM, "Xenova/all-MiniLM-L6-v2") });
  });
  afterEach(async () => {
    await t.cleanup();
    await fake.close();
  });

  it("answers with the cheat sheet in the documented order", async () => {
    const { lilo, embedder } = t;
    embedder.set(MSG, q);
    lilo.profile.add("chris", "work", "Christian ist Softwareentwickler");
    lilo.rules.add("chris", "Antworte ohne Aufzählungen.");
    seedDb(lilo, (sql) => new ShortTermStore(sql).add("chris", null, "Wir sprachen zuletzt über seinen Umzug.", clock.now().toISOString()));
    const scores = [0.9, 0.8, 0.7, 0.6, 0.5, 0.31, 0.29];
    for (const [i, s] of scores.entries()) {
      const text = `Notiz ${i} mit Score ${s}`;
      embedder.set(text, vectorWithCosine(q, s, i));
      await lilo.memory.add({ text, userId: "chris" });
    }
    embedder.set("Ich vermute, Kino ist ihm wichtig.", vectorWithCosine(q, 0.6, 9));
    await lilo.memory.add({ text: "Ich vermute, Kino ist ihm wichtig.", userId: "chris", store: "thoughts" });
    // Another user's identical note never reaches Christian's sheet.
    embedder.set("Annas geheime Notiz", q);
    await lilo.memory.add({ text: "Annas geheime Notiz", userId: "anna" });

    const result = await lilo.handleMessage({ userId: "chris", text: MSG });
    await lilo.idle();

    expect(result.ok).toBe(true);
    expect(result.text).toBe("Gern, Christian!");
    expect(result.mood).toBe("freude");
    expect(result.model).toBe("anthropic:claude-test");
    expect(result.notesUsed.map((n) => n.text)).toEqual(scores.slice(0, 5).map((s, i) => `Notiz ${i} mit Score ${s}`));

    const chat = fake.requests.find((r) => !isExtraction(r.system))!;
    const sys = chat.system!;
    const order = [
      "Du bist Lilo",
      "Gelernte Regeln",
      "Antworte ohne Aufzählungen.",
      "Profil von Christian",
      "Christian ist Softwareentwickler",
      "Kurzzeitgedächtnis",
      "Wir sprachen zuletzt über seinen Umzug.",
      "Relevante Erinnerungen an Christian",
      "Notiz 0 mit Score 0.9",
      "Notiz 4 mit Score 0.5",
      "Gedanken aus stillen Momenten",
      "Ich vermute, Kino ist ihm wichtig.",
    ];
    const positions = order.map((s) => sys.indexOf(s));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(sys).not.toContain("Notiz 5 mit Score 0.31"); // top 5 only
    expect(sys).not.toContain("Notiz 6 mit Score 0.29"); // (the 0.3 cut-off itself: next test)
    expect(sys).not.toContain("Annas geheime Notiz");
    expect(chat.model).toBe("claude-test");
    expect(chat.messages).toEqual([{ role: "user", content: MSG }]);

    const rows = readDb(lilo).all("SELECT role, text, model, mood FROM messages ORDER BY id");
    expect(rows).toEqual([
      { role: "user", text: MSG, model: null, mood: null },
      { role: "assistant", text: "Gern, Christian!", model: "anthropic:claude-test", mood: "freude" },
    ]);
  });

  it("leaves notes below the 0.3 cut-off off the sheet even when fewer than five qualify", async () => {
    const { lilo, embedder } = t;
    embedder.set(MSG, q);
    for (const [i, s] of [0.31, 0.29].entries()) {
      embedder.set(`Grenznotiz ${s}`, vectorWithCosine(q, s, i + 1));
      await lilo.memory.add({ text: `Grenznotiz ${s}`, userId: "chris" });
    }
    const result = await lilo.handleMessage({ userId: "chris", text: MSG });
    expect(result.notesUsed.map((n) => n.text)).toEqual(["Grenznotiz 0.31"]);
    const sys = fake.requests.find((r) => !isExtraction(r.system))!.system!;
    expect(sys).toContain("- Grenznotiz 0.31");
    expect(sys).not.toContain("Grenznotiz 0.29");
  });

  it("a conversation lasts until the pause: its earlier turns precede the message, after it a new one starts", async () => {
    const { lilo } = t;
    await lilo.handleMessage({ userId: "chris", text: "Hallo Lilo" });
    clock.advance(5 * 60_000);
    await lilo.handleMessage({ userId: "chris", text: "Wie geht's?" });
    const chats = fake.requests.filter((r) => !isExtraction(r.system));
    expect(chats[1]!.messages).toEqual([
      { role: "user", content: "Hallo Lilo" },
      { role: "assistant", content: "Gern, Christian!" },
      { role: "user", content: "Wie geht's?" },
    ]);
    clock.advance(61 * 60_000);
    await lilo.handleMessage({ userId: "chris", text: "Da bin ich wieder" });
    await lilo.idle();
    const last = fake.requests.filter((r) => !isExtraction(r.system) && !r.system?.includes("Summarise")).at(-1)!;
    expect(last.messages).toEqual([{ role: "user", content: "Da bin ich wieder" }]);
    const convs = readDb(lilo).all("SELECT DISTINCT conversation_id AS c FROM messages ORDER BY c");
    expect(convs).toHaveLength(2);
    // The finished conversation was summarised into the short-term memory and is on the new sheet.
    expect(
      (readDb(lilo).get("SELECT text FROM short_term WHERE user_id = 'chris' ORDER BY created_at DESC, id DESC LIMIT 1") as { text: string } | undefined)?.text,
    ).toBe("Gern, Christian!");
    expect(last.system).toContain("Kurzzeitgedächtnis");
  });

  it("keeps only the user's new facts from the one extraction after the reply", async () => {
    const { lilo, embedder } = t;
    const base = basisVector(DIM, 5);
    embedder.set("Christian geht gern ins Kino", base);
    await lilo.memory.add({ text: "Christian geht gern ins Kino", userId: "chris" });
    embedder.set("Christian mag Kinobesuche", vectorWithCosine(base, 0.83, 1)); // same meaning → skipped
    embedder.set("Christian mag Kinos in Berlin", vectorWithCosine(base, 0.81, 2)); // just below → kept
    extraction = JSON.stringify({
      facts: ["Christian geht gern ins Kino", "Christian mag Kinobesuche", "Christian mag Kinos in Berlin", "Christian schaut Trödeltrupp"],
      content: ["Christian fragte, ob Lilo heute Abend mit ins Kino kommt."],
      profile: [{ category: "Preferences", text: "Christian geht gern ins Kino" }],
      important: [],
    });
    fake.replyAlways((body) => (isExtraction(body.system) ? extraction : "Magst du auch Trödeltrupp? [EMOTION: neugierig]"));
    await lilo.handleMessage({ userId: "chris", text: "Ich gehe gern ins Kino, zum Beispiel in Berlin." });
    await lilo.idle();

    const extractionCalls = fake.requests.filter((r) => isExtraction(r.system));
    expect(extractionCalls).toHaveLength(1);
    const sent = extractionCalls[0]!.messages[0]!.content;
    expect(sent).toContain("Ich gehe gern ins Kino");
    expect(sent).toContain("Magst du auch Trödeltrupp?");

    const notes = readDb(lilo).all("SELECT text, kind FROM notes WHERE user_id = 'chris' ORDER BY id");
    expect(notes).toEqual([
      { text: "Christian geht gern ins Kino", kind: "fact" },
      { text: "Christian mag Kinos in Berlin", kind: "fact" },
      { text: "Christian fragte, ob Lilo heute Abend mit ins Kino kommt.", kind: "content" },
    ]);
    expect(lilo.profile.list("chris").map((p) => [p.category, p.text])).toEqual([["preferences", "Christian geht gern ins Kino"]]);
    // Every row has its vector.
    const report = await lilo.maintenance.check();
    expect(report.rowsWithoutVector).toEqual([]);
    expect(report.vectorsWithoutRow).toEqual([]);
  });

  it("handles malformed extraction answers without breaking the turn (repair, one retry, counted)", async () => {
    const { lilo } = t;
    const good = JSON.stringify({ facts: ["Christian trinkt Tee"], content: [], profile: [], important: [] });
    const answers = [`Klar! Hier:\n\`\`\`json\n${good}\n\`\`\``, "kein JSON", good, "kaputt", '{"facts": "nope"}'];
    fake.replyAlways((body) => (isExtraction(body.system) ? answers.shift()! : "Okay."));
    await lilo.handleMessage({ userId: "chris", text: "Ich trinke Tee." });
    await lilo.idle();
    await lilo.handleMessage({ userId: "chris", text: "Ich trinke Tee gern." });
    await lilo.idle();
    const r = await lilo.handleMessage({ userId: "chris", text: "Wirklich." });
    await lilo.idle();
    expect(r.ok).toBe(true);
    expect(lilo.maintenance.modelProblems()).toEqual({ "extraction:repaired": 1, "extraction:retried": 1, "extraction:dropped": 1 });
    expect(readDb(lilo).get("SELECT count(*) AS n FROM notes")).toEqual({ n: 1 });
    // The retry sent the broken answer back with the complaint.
    const retryCall = fake.requests.filter((x) => isExtraction(x.system))[2]!;
    expect(retryCall.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  });

  it("a failed model call keeps the user's message for a retry", async () => {
    const { lilo } = t;
    fake.fail(500, 1, {}, "overloaded");
    const failed = await lilo.handleMessage({ userId: "chris", text: "Bist du da?" });
    expect(failed.ok).toBe(false);
    expect(failed.error?.retryable).toBe(true);
    expect(failed.text).toContain("Deine Nachricht ist gespeichert");
    expect(failed.text).not.toContain("sk-ant-test");
    expect(readDb(lilo).all("SELECT role, text FROM messages")).toEqual([{ role: "user", text: "Bist du da?" }]);
    expect(readDb(lilo).get("SELECT count(*) AS n FROM notes")).toEqual({ n: 0 });

    const again = await lilo.retry("chris");
    await lilo.idle();
    expect(again?.ok).toBe(true);
    expect(readDb(lilo).all("SELECT role FROM messages ORDER BY id")).toEqual([{ role: "user" }, { role: "assistant" }]);
    expect(await lilo.retry("chris")).toBeUndefined();
  });

  it("puts the short-term memory on the retry of a conversation's first message", async () => {
    const { lilo } = t;
    seedDb(lilo, (sql) => new ShortTermStore(sql).add("chris", null, "Wir sprachen zuletzt über seinen Umzug.", clock.now().toISOString()));
    fake.fail(500, 1, {}, "overloaded");
    expect((await lilo.handleMessage({ userId: "chris", text: "Da bin ich" })).ok).toBe(false);
    expect((await lilo.retry("chris"))?.ok).toBe(true);
    const chats = fake.requests.filter((r) => !isExtraction(r.system));
    expect(chats.map((r) => r.system!.includes("Wir sprachen zuletzt über seinen Umzug."))).toEqual([true, true]);
  });

  it("without a chat model, answers with the missing setting, the message kept", async () => {
    const bare = makeTestLilo({}, { clock });
    try {
      const r = await bare.lilo.handleMessage({ userId: "chris", text: "Hallo?" });
      expect(r).toMatchObject({ ok: false, error: { code: "config" } });
      expect(r.text).toContain("ANTHROPIC_API_KEY");
      expect(readDb(bare.lilo).all("SELECT role, text FROM messages")).toEqual([{ role: "user", text: "Hallo?" }]);
    } finally {
      await bare.cleanup();
    }
  });

  it("a marker that cannot be stored does not cost the answer", async () => {
    class BrokenThoughts extends ControlledEmbedder {
      override async embed(texts: string[]): Promise<Float32Array[]> {
        if (texts.some((x) => x.includes("Gedanke"))) throw new Error("embedder down");
        return super.embed(texts);
      }
    }
    const env = { ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: fake.baseURL, LILO_CHAT_MODEL: "anthropic:claude-test" };
    const broken = makeTestLilo(env, { clock, embedder: new BrokenThoughts(DIM) });
    fake.replyAlways((body) => (isExtraction(body.system) ? extraction : "Schön! [THOUGHT: Ein Gedanke.] [FOLLOWUP: Wie war es?]"));
    try {
      const r = await broken.lilo.handleMessage({ userId: "chris", text: "Ich war im Kino." });
      await broken.lilo.idle();
      expect(r).toMatchObject({ ok: true, text: "Schön!" });
      expect(readDb(broken.lilo).all("SELECT role, text FROM messages ORDER BY id")).toEqual([
        { role: "user", text: "Ich war im Kino." },
        { role: "assistant", text: "Schön!" },
      ]);
      expect(readDb(broken.lilo).get("SELECT count(*) AS n FROM thoughts")).toEqual({ n: 0 });
    } finally {
      await broken.cleanup();
    }
  });

  it("turns store markers into memories out of the user's sight", async () => {
    const { lilo } = t;
    fake.replyAlways((body) =>
      isExtraction(body.system) ? extraction : "Schön! [THOUGHT: Er wirkt heute entspannt.] Bis später. [FOLLOWUP: Wie war der Film?] [EMOTION: happy]",
    );
    const r = await lilo.handleMessage({ userId: "chris", text: "Ich gehe ins Kino." });
    await lilo.idle();
    expect(r.text).toBe("Schön! Bis später.");
    expect(lilo.memory.list("chris", { store: "thoughts" }).map((x) => x.text)).toEqual(["Er wirkt heute entspannt."]);
    expect(lilo.topics.list("chris").map((x) => x.text)).toEqual(["Wie war der Film?"]);
  });
});
