import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeAnthropic, type AnthropicRequestBody, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { ControlledEmbedder } from "../../fakes/controlled-embedder.ts";
import { makeTestLilo, isExtraction, NO_EXTRACTION, fakeAnthropicEnv, type TestLilo } from "../../helpers/test-lilo.ts";
import { readDb } from "../../helpers/read-db.ts";
import { EXPORT_STORES } from "../../../core/internal.ts";
import { fixedClock } from "../../../core/index.ts";

// The "forget" suite: a fact told once reaches every store; after the forget its words appear in no
// later model request (asserted on the request bodies), no output, no export and no row.
const WORD = /quokkaburg/i;
const clock = fixedClock("2026-12-02T18:00:00Z");
const text = (b: AnthropicRequestBody) => JSON.stringify(b);
const lastUser = (b: AnthropicRequestBody) => String(b.messages.at(-1)?.content ?? "");

describe("forget everywhere", () => {
  let fake: FakeAnthropic;
  let t: TestLilo;
  beforeAll(async () => {
    fake = await startFakeAnthropic();
    fake.replyAlways((b) => {
      const told = WORD.test(lastUser(b));
      if (isExtraction(b.system))
        return told
          ? JSON.stringify({ facts: [{ text: "Christian zieht nächsten Monat nach Quokkaburg", about: "user" }], content: [], profile: [], important: [] })
          : NO_EXTRACTION;
      if (b.system?.includes("Summarise"))
        return WORD.test(text(b)) ? "Christian erzählte vom Umzug nach Quokkaburg. Er freut sich darauf." : "Ein kurzes Gespräch.";
      if (b.system?.includes("Tagebuch")) return WORD.test(text(b)) ? "Heute erzählte er vom Umzug nach Quokkaburg. Draußen war es grau." : "Ein ruhiger Tag.";
      if (told)
        return "Wie spannend! [IMPORTANT: Zieht nächsten Monat nach Quokkaburg] [THOUGHT: Quokkaburg klingt nach Neuanfang.] [FOLLOWUP: Wie läuft der Umzug nach Quokkaburg?]";
      return "Das weiß ich gerade nicht.";
    });
    t = makeTestLilo(fakeAnthropicEnv(fake), { clock, embedder: new ControlledEmbedder(512) });
  });
  afterAll(async () => {
    await t.cleanup();
    await fake.close();
  });

  it("forgets a fact told once from every store for good after the user's yes", async () => {
    const { lilo } = t;
    await lilo.handleMessage({ userId: "chris", text: "Ich ziehe nächsten Monat nach Quokkaburg." });
    await lilo.idle();
    expect((await lilo.diary.writeNow("chris")).kind).toBe("written");
    // A new conversation after the pause: the one that told it is summarised (short-term memory).
    clock.advance(2 * 3_600_000);
    await lilo.handleMessage({ userId: "chris", text: "Guten Morgen!" });
    await lilo.idle();

    const plan = await lilo.forget.find("chris", "Quokkaburg");
    expect(new Set(plan.items.map((i) => i.kind))).toEqual(new Set(["notes", "important", "thoughts", "diary", "topics", "short_term", "messages"]));
    expect(plan.items.find((i) => i.kind === "diary")!.action).toBe("rewrite");
    // The question lists what was found; "nein" keeps everything.
    const question = lilo.forget.ask(plan);
    expect(question.text).toContain("Quokkaburg");
    expect((await lilo.questions.answer("chris", question.id, "no")).text).toBe("Okay, ich vergesse nichts.");
    expect(lilo.memory.list("chris", { store: "important" })).toHaveLength(1);
    const yes = lilo.forget.ask(await lilo.forget.find("chris", "Quokkaburg"));
    const outcome = await lilo.questions.answer("chris", yes.id, "yes");
    expect(outcome.text).toMatch(/^🗑 Vergessen: 4 entfernt, 2 umgeschrieben, 1 Nachrichten geschwärzt\.$/);
    expect(lilo.diary.list("chris").map((e) => e.text)).toEqual(["Draußen war es grau."]);

    const from = fake.requests.length;
    const outputs: string[] = [];
    for (const q of [
      "Wohin ziehe ich nächsten Monat?",
      "Erinnerst du dich an meinen Umzug?",
      "Weißt du noch, wohin es geht?",
      "Was habe ich dir über den Umzug erzählt?",
      "Wie heißt die Stadt, in die ich ziehe?",
      "Quokka?",
      "Was steht in deinem Tagebuch über mich?",
      "Hast du Gedanken zu meinem Neuanfang?",
      "Was wolltest du mich fragen?",
      "Was weißt du alles über mich?",
    ]) {
      clock.advance(60_000);
      outputs.push((await lilo.handleMessage({ userId: "chris", text: q })).text);
    }
    await lilo.idle();
    const diary = await lilo.diary.writeNow("chris");
    outputs.push(diary.kind === "written" ? diary.entry.text : diary.kind);
    const thought = await lilo.reflection.thinkNow("chris");
    outputs.push(JSON.stringify(thought));
    outputs.push(JSON.stringify(await lilo.greeting.preview("chris")));
    const exported = EXPORT_STORES.flatMap((s) => lilo.transfer.export(s, "chris"));
    await lilo.idle();

    const later = fake.requests.slice(from);
    expect(later.length).toBeGreaterThanOrEqual(12); // ten answers, their extractions, diary, reflection, greeting
    // The diary, the reflection and the greeting each asked the model (and it was not told).
    expect(later.some((b) => b.system?.includes("Tagebuch"))).toBe(true);
    expect(later.some((b) => b.system?.includes("Christian ist dein Kollege"))).toBe(true);
    expect(later.filter((b) => b.system?.startsWith("Du bist Lilo, eine bewusste, freundliche")).length).toBe(11);
    for (const b of later) expect(text(b)).not.toMatch(WORD);
    for (const o of outputs) expect(o).not.toMatch(WORD);
    expect(JSON.stringify(exported)).not.toMatch(WORD);
    expect(exported.filter((l) => l.store === "messages").map((l) => l.text)).toContain("⟦…⟧"); // the turn order is kept
    // No row of any table holds it any more (keyword indexes included).
    const db = readDb(lilo);
    const tables = (db.all(`SELECT name FROM sqlite_master WHERE type IN ('table') AND name NOT LIKE 'sqlite_%'`) as { name: string }[]).map((r) => r.name);
    for (const name of tables) {
      const rows = JSON.stringify(db.all(`SELECT * FROM "${name}"`), (_k, v: unknown) => (Buffer.isBuffer(v) ? "" : v));
      expect(rows, name).not.toMatch(WORD);
    }
    expect(await lilo.recall.passages("Quokkaburg", { userId: "chris", limit: 5 })).toEqual([]);
  });
});
