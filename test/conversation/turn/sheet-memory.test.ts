/**
 * What reaches the cheat sheet: a note found only by its rare
 * word and one found only by meaning; the passage of an explicitly named
 * day; important memories; a fair profile within its budget; and duplicates
 * judged by the thresholds of the embedder actually in use.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fixedClock } from "../../../core/index.ts";
import { ControlledEmbedder, basisVector, vectorWithCosine } from "../../fakes/controlled-embedder.ts";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";
import { startFakeQdrant } from "../../fakes/fake-qdrant.ts";
import { readDb } from "../../helpers/read-db.ts";
import { atTime } from "../../helpers/clock-at.ts";
import { PROFILE_CATEGORIES } from "../../../core/foundation/store/values.ts";

const DIM = 64;
const clock = fixedClock("2026-12-02T18:00:00Z");
let t: TestLilo | undefined;

afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

/** The system prompt Lilo would send for `text` now, and the block report. */
async function sheet(text: string, user = "chris") {
  const p = await t!.lilo.preview({ userId: user, text });
  return { system: p.request.system ?? "", blocks: p.blocks };
}

describe("the memory part of the cheat sheet", () => {
  it("brings the notes that share the message's rare word or its meaning, nothing else", async () => {
    t = makeTestLilo({ LILO_USER_NAMES: "chris=Christian" }, { clock });
    const msg = "Hat Jorinde sich wieder gemeldet?";
    const q = basisVector(DIM, 0);
    t.embedder.set(msg, q);
    // Shares the rare name, but its vector is orthogonal to the message.
    t.embedder.set("Jorinde ist Christians Kletterpartnerin aus Tromsø.", basisVector(DIM, 1));
    // Shares no word with the message, but means nearly the same.
    t.embedder.set("Seine Freundin vom Bouldern hat lange nichts von sich hören lassen.", vectorWithCosine(q, 0.8, 2));
    // Neither a shared word nor meaning: noise the floor must cut.
    t.embedder.set("Christian kocht gern Linsensuppe.", vectorWithCosine(q, 0.05, 3));
    for (const text of [
      "Jorinde ist Christians Kletterpartnerin aus Tromsø.",
      "Seine Freundin vom Bouldern hat lange nichts von sich hören lassen.",
      "Christian kocht gern Linsensuppe.",
    ]) {
      expect((await t.lilo.memory.add({ text, userId: "chris" })).added).toBe(true);
    }
    const { system, blocks } = await sheet(msg);
    expect(system).toContain("- Jorinde ist Christians Kletterpartnerin aus Tromsø.");
    expect(system).toContain("- Seine Freundin vom Bouldern hat lange nichts von sich hören lassen.");
    expect(system).not.toContain("Linsensuppe");
    const byText = new Map(blocks.notes.kept.map((h) => [h.text, h]));
    expect(byText.get("Jorinde ist Christians Kletterpartnerin aus Tromsø.")?.keyword).toBeGreaterThan(0);
    expect(byText.get("Seine Freundin vom Bouldern hat lange nichts von sich hören lassen.")).toMatchObject({ score: expect.closeTo(0.8, 3) });
  });

  it("brings the passage of an explicitly named day, dated locally, with its neighbouring turn", async () => {
    t = makeTestLilo({ LILO_USER_NAMES: "chris=Christian" }, { clock });
    const at = (day: string, minute: number) => `2026-${day}T10:${String(minute).padStart(2, "0")}:00Z`;
    const days = ["04-28", "05-03", "05-09", "06-14"];
    t.lilo.recall.importChat(
      days.flatMap((d) => [
        { userId: "chris", role: "user" as const, text: `Heute war ein langer Tag im Büro (${d}).`, createdAt: at(d, 0) },
        { userId: "chris", role: "assistant" as const, text: "Erzähl, was war los?", createdAt: at(d, 1) },
      ]),
    );
    t.lilo.recall.importChat([{ userId: "chris", role: "user", text: "Am Nachmittag haben wir den Drachen steigen lassen.", createdAt: at("05-03", 2) }]);
    const { system, blocks } = await sheet("Was haben wir am 3. Mai gemacht?");
    expect(blocks.passages.kept[0]?.messages[0]?.createdAt.slice(0, 10)).toBe("2026-05-03");
    expect(blocks.passages.kept.every((p) => p.messages.every((m) => m.createdAt.startsWith("2026-05-03")))).toBe(true);
    expect(system).toContain("[2026-05-03 12:02] Christian: Am Nachmittag haben wir den Drachen steigen lassen.");
    expect(system).toContain("[2026-05-03 12:01] Lilo: Erzähl, was war los?"); // the neighbouring turn, local time (CEST)
    // The same search answers [RECALL:]: a date in the payload ranks that day first too.
    expect((await t.lilo.recall.rank("3. Mai Büro", { userId: "chris", limit: 2 })).every((m) => m.createdAt.startsWith("2026-05-03"))).toBe(true);
  });

  it('labels the persona\'s own turns in a passage with her name (LILO_NAME), not with "Lilo"', async () => {
    t = makeTestLilo({ LILO_USER_NAMES: "chris=Christian", LILO_NAME: "Mira" }, { clock });
    t.lilo.recall.importChat([
      { userId: "chris", role: "user", text: "Heute war ein langer Tag im Büro.", createdAt: "2026-05-03T10:00:00Z" },
      { userId: "chris", role: "assistant", text: "Erzähl, was war los?", createdAt: "2026-05-03T10:01:00Z" },
    ]);
    const { system, blocks } = await sheet("Was war am 3. Mai im Büro?");
    expect(blocks.passages.kept).toHaveLength(1);
    expect(system).toContain("[2026-05-03 12:00] Christian: Heute war ein langer Tag im Büro.");
    expect(system).toContain("[2026-05-03 12:01] Mira: Erzähl, was war los?");
    expect(system).not.toContain("Lilo: Erzähl");
  });

  it("brings chat-log passages by words or meaning from past conversations only", async () => {
    t = makeTestLilo({ LILO_USER_NAMES: "chris=Christian" }, { clock });
    const msg = "Wie war nochmal das Konzert?";
    const q = basisVector(DIM, 0);
    t.embedder.set(msg, q).set("Die Band hat so laut gespielt, mir klingeln noch die Ohren.", vectorWithCosine(q, 0.7, 1));
    t.lilo.recall.importChat([
      { userId: "chris", role: "user", text: "Das Konzert war am Samstag.", createdAt: "2026-11-01T18:00:00Z" },
      { userId: "chris", role: "user", text: "Ich koche heute Linsensuppe.", createdAt: "2026-11-05T18:00:00Z" },
      { userId: "chris", role: "user", text: "Die Band hat so laut gespielt, mir klingeln noch die Ohren.", createdAt: "2026-11-09T18:00:00Z" },
    ]);
    const { blocks } = await sheet(msg);
    const texts = blocks.passages.kept.flatMap((p) => p.messages.filter((m) => m.hit).map((m) => m.text));
    expect(texts).toContain("Das Konzert war am Samstag."); // shares a word
    expect(texts).toContain("Die Band hat so laut gespielt, mir klingeln noch die Ohren."); // shares only meaning
    expect(texts[0]).toBe("Das Konzert war am Samstag.");
    expect(texts).not.toContain("Ich koche heute Linsensuppe."); // neither: below the floor
    // Messages of the running conversation never come back as passages.
    const running = readDb(t.lilo).get("SELECT id FROM conversations WHERE user_id = 'chris' ORDER BY last_message_at DESC, id DESC LIMIT 1") as { id: number };
    expect(await t.lilo.recall.passages(msg, { userId: "chris", limit: 3, excludeConversationId: running.id })).not.toContainEqual(
      expect.objectContaining({ conversationId: running.id }),
    );
  });

  it("puts important memories on every sheet within their budget, the most relevant first", async () => {
    t = makeTestLilo({ LILO_IMPORTANT_MAX_CHARS: "120" }, { clock });
    await t.lilo.memory.add({ text: "Christians Mutter ist im Krankenhaus.", userId: "chris", store: "important" });
    let s = await sheet("Guten Morgen!");
    expect(s.system).toContain("Wichtige Erinnerungen");
    expect(s.system).toContain("- Christians Mutter ist im Krankenhaus.");
    for (let i = 0; i < 6; i++)
      await t.lilo.memory.add({ text: `Wichtiges Ereignis Nummer ${i} mit etwas mehr Text darin.`, userId: "chris", store: "important" });
    s = await sheet("Wie geht es deiner Mutter im Krankenhaus?");
    expect(s.blocks.important.kept[0]?.text).toBe("Christians Mutter ist im Krankenhaus.");
    expect(s.blocks.important.left.length).toBeGreaterThan(0);
    expect(s.blocks.important.kept.reduce((n, h) => n + h.text.length + 3, 0)).toBeLessThanOrEqual(120);
  });

  it("keeps every profile category within the budget, the newest and most relevant entries first", async () => {
    t = makeTestLilo({ LILO_PROFILE_MAX_CHARS: "400" }, { clock });
    const p = t.lilo.profile;
    for (let i = 0; i < 90; i++)
      atTime(clock, `2026-01-01T00:${String(i % 60).padStart(2, "0")}:00Z`, () => p.add("chris", "person", `Personenfakt Nummer ${i} über Christian`));
    atTime(clock, "2026-01-02T00:00:00Z", () => p.add("chris", "work", "arbeitet als Entwickler"));
    atTime(clock, "2026-01-02T00:00:00Z", () => p.add("chris", "preferences", "mag Jazz"));
    const { system, blocks } = await sheet("Was macht die Arbeit?");
    expect(system).toContain("- work: arbeitet als Entwickler");
    expect(system).toContain("- preferences: mag Jazz");
    expect(system).toMatch(/- person: Personenfakt/);
    expect(blocks.profile.left.length).toBeGreaterThan(50);
    expect(blocks.profile.kept.reduce((n, e) => n + e.text.length + 4, 0)).toBeLessThanOrEqual(400);
  });

  it("keeps the whole memory part under its budget, whatever the store sizes", async () => {
    t = makeTestLilo({ LILO_MEMORY_BUDGET_TOKENS: "150" }, { clock });
    for (let i = 0; i < 20; i++) await t.lilo.memory.add({ text: `Kino Erinnerung ${i}: ${"lang ".repeat(20)}`, userId: "chris" });
    for (let i = 0; i < 20; i++) t.lilo.profile.add("chris", PROFILE_CATEGORIES[i % PROFILE_CATEGORIES.length]!, `Eintrag ${i} ${"x".repeat(30)}`);
    const { blocks } = await sheet("Gehen wir ins Kino?");
    expect(blocks.usedTokens).toBeLessThanOrEqual(150);
    expect(blocks.notes.kept.length + blocks.notes.left.length).toBe(5);
  });
});

describe("duplicates belong to the embedder in use", () => {
  it("drops a duplicate by meaning only under a known embedder, an exact one under any", async () => {
    for (const [id, dropped] of [
      ["Xenova/all-MiniLM-L6-v2", true],
      [undefined, false],
    ] as const) {
      const embedder = new ControlledEmbedder(DIM, id);
      t = makeTestLilo({}, { clock, embedder });
      const base = basisVector(DIM, 4);
      embedder.set("Christian geht gern ins Kino", base).set("Christian mag Kinobesuche", vectorWithCosine(base, 0.9, 1));
      expect((await t.lilo.memory.add({ text: "Christian geht gern ins Kino", userId: "chris" })).added).toBe(true);
      const similar = await t.lilo.memory.add({ text: "Christian mag Kinobesuche", userId: "chris" });
      expect(similar.added, `embedder ${embedder.id}`).toBe(!dropped);
      if (!similar.added) expect(similar.reason).toBe("similar");
      expect(await t.lilo.memory.add({ text: "Christian geht gern ins Kino", userId: "chris" })).toMatchObject({ added: false, reason: "exact-duplicate" });
      await t.cleanup();
      t = undefined;
    }
  });
});

describe("hybrid search on both vector backends", () => {
  it("gives the same results with the embedded index and Qdrant: the keyword side stays in SQLite", async () => {
    const fake = await startFakeQdrant();
    const notes = [
      "Jorinde klettert in Tromsø.",
      "Christian war im Kino mit Anna.",
      "Der Kinoabend am Freitag war lustig.",
      "Anna mag Popcorn.",
      "Christian lernt Norwegisch für die Reise.",
    ];
    const results: string[][] = [];
    try {
      for (const backend of ["embedded", "qdrant"] as const) {
        const embedder = new ControlledEmbedder(DIM);
        const q = basisVector(DIM, 0);
        embedder.set("Kino mit Anna?", q);
        notes.forEach((n, i) => embedder.set(n, vectorWithCosine(q, 0.2 + i * 0.15, i + 1)));
        const env: Record<string, string> = backend === "qdrant" ? { LILO_VECTOR_BACKEND: "qdrant", QDRANT_URL: fake.url, QDRANT_COLLECTION: "parity" } : {};
        t = makeTestLilo(env, { clock, embedder });
        for (const text of notes) await t.lilo.memory.add({ text, userId: "chris" });
        const hits = await t.lilo.memory.search("Kino mit Anna?", { userId: "chris", k: 4, minScore: 0.5 });
        results.push(hits.map((h) => `${h.text} ${h.score.toFixed(3)} ${h.fused?.toFixed(5)}`));
        await t.cleanup();
        t = undefined;
      }
    } finally {
      await fake.close();
    }
    expect(results[0]!.length).toBeGreaterThan(2);
    expect(results[1]).toEqual(results[0]);
  });
});
