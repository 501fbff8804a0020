import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { createLilo, type Lilo, type LiloConfig } from "../../../core/index.ts";
import { openLiloDatabase, type Db } from "../../../core/foundation/store/db.ts";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";
import { runCli } from "../../helpers/cli.ts";
import { WHY_TEXTS } from "../../../adapters/shared/why-texts.ts";
import { startFakeOpenAI, type FakeOpenAI, type OpenAIRequestBody } from "../../fakes/fake-openai.ts";

const FIXTURES = join(import.meta.dirname, "../../fixtures/history");

/** The history extraction's answer to a piece of the WhatsApp fixture: one fact of each speaker, and one the guard must drop. */
function answer(body: OpenAIRequestBody): string {
  const chat = body.messages.at(-1)!.content;
  if (!body.messages[0]!.content.includes("old chat")) return "{}";
  if (chat.includes("marathon"))
    return JSON.stringify({
      facts: [
        { text: "The user runs the Berlin marathon next September", about: "user" },
        // The assistant's advice and its own words: no one's facts.
        { text: "ChatGPT recommends strength work for the hips", about: "ChatGPT" },
        { text: "The assistant finds knee pain common", about: "lilo" },
      ],
      profile: [],
      important: [],
    });
  if (chat.includes("Kletterkurs"))
    return JSON.stringify({ facts: [{ text: "Jonas hat im Dezember einen Kletterkurs gebucht", about: "user" }], profile: [], important: [] });
  return JSON.stringify({
    facts: [
      { text: "Mara wohnt in der Gartenstraße 12, dritter Stock", about: "Mara" },
      // Mara's words, not Jonas's: never his own fact.
      { text: "Jonas wohnt in der Gartenstraße", about: "user" },
      { text: "Jonas hat einen Bulli", about: "user" },
    ],
    profile: [],
    important: [],
  });
}

describe("memories from an imported chat, in the background", () => {
  let llm: FakeOpenAI;
  let t: TestLilo;
  let db: Db;
  const openWith = (config: LiloConfig): Lilo => createLilo(config, { embedder: t.embedder, db, clock: t.lilo.clock });
  const open = (): Lilo => openWith(t.lilo.config);
  const rows = <T>(sql: string) => db.prepare(sql).all() as T[];
  const file = () => {
    const f = join(t.dir, "WhatsApp Chat mit Mara.txt");
    copyFileSync(join(FIXTURES, "whatsapp-android-de.txt"), f);
    return f;
  };

  beforeAll(async () => {
    llm = await startFakeOpenAI();
    llm.replyAlways(answer);
  });
  afterAll(() => llm.close());
  beforeEach(() => {
    llm.requests.length = 0;
    t = makeTestLilo({
      LILO_TIMEZONE: "Europe/Berlin",
      LILO_TERMINAL_USER: "jonas",
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: llm.baseURL,
      LILO_CHAT_MODEL: "openai:gpt-4o-mini",
    });
    db = openLiloDatabase(t.lilo.config);
  });
  afterEach(async () => {
    db.close();
    await t.cleanup();
  });

  it("shows the extraction's calls, tokens and cost at the role's price in the dry run, and calls no model", async () => {
    const r = await runCli(open, ["import-history", file(), "--me", "Jonas"]);
    expect(r.out).toMatch(
      /memories from it, in the background: 2 extraction calls, about \d+ tokens in and 300 out; estimated cost ≈ \$0\.\d+ on openai:gpt-4o-mini/,
    );
    expect(llm.requests).toHaveLength(0);
    expect(rows("SELECT id FROM jobs")).toHaveLength(0);
  });

  it("writes one call a conversation, each memory with the import as provenance and about whom it was said", async () => {
    const r = await runCli(open, ["import-history", file(), "--me", "Jonas", "--apply"]);
    expect(r.err).toBe("");
    expect(r.out).toContain("import 1: memories done");
    expect(llm.requests).toHaveLength(2);
    const notes = rows<{ text: string; subject: string; provenance: string; provenance_ref: string }>(
      "SELECT text, subject, provenance, provenance_ref FROM notes ORDER BY text",
    );
    expect(notes).toEqual([
      { text: "Jonas hat einen Bulli", subject: "user", provenance: "import", provenance_ref: "whatsapp:1" },
      { text: "Jonas hat im Dezember einen Kletterkurs gebucht", subject: "user", provenance: "import", provenance_ref: "whatsapp:1" },
      { text: "Mara wohnt in der Gartenstraße 12, dritter Stock", subject: "Mara", provenance: "import", provenance_ref: "whatsapp:1" },
    ]);
    const id = db.prepare("SELECT id FROM notes WHERE subject = 'Mara'").pluck().get() as number;
    expect((await runCli(open, ["memory", "show", String(id)])).out).toContain("from:  import whatsapp:1");
    expect(WHY_TEXTS.en.from({ kind: "import", ref: "whatsapp:1" })).toBe("imported (whatsapp:1)");
  });

  it("shows the speakers' names in the transcript the model reads, the person's lines under their own", async () => {
    await runCli(open, ["import-history", file(), "--me", "Jonas", "--apply"]);
    const chat = llm.requests[0]!.messages.at(-1)!.content;
    expect(chat).toMatch(/\] Mara: Hast du am Samstag Zeit\?/);
    expect(chat).toMatch(/\] Jonas: Klar, ich bringe den Bulli mit\./);
  });

  it("pauses when the budget is spent, says so in lilo status, and goes on from there once it may", async () => {
    const tight = { ...t.lilo.config, costs: { ...t.lilo.config.costs, budgetDay: "50 tokens" } };
    const r = await runCli(() => openWith(tight), ["import-history", file(), "--me", "Jonas", "--apply"]);
    expect(r.out).toContain("added 5 messages");
    expect(r.out).toMatch(/paused: The budget is spent/);
    expect(llm.requests).toHaveLength(1);
    expect((await runCli(() => openWith(tight), ["status"])).out).toMatch(
      /history import 1 \(whatsapp\): memories from 3 of 5 messages \(60 %\); paused: The budget is spent/,
    );

    const later = await runCli(open, ["import-history", "extract"]);
    expect(later.out).toContain("import 1: memories done");
    // Only the piece it had not read yet.
    expect(llm.requests).toHaveLength(2);
    expect(rows("SELECT id FROM jobs WHERE status = 'pending'")).toHaveLength(0);
  });

  it("keeps nothing an assistant of the export said as a fact, neither its own nor Lilo's", async () => {
    const f = join(t.dir, "conversations.json");
    copyFileSync(join(FIXTURES, "chatgpt-conversations.json"), f);
    await runCli(open, ["import-history", f, "--apply"]);
    expect(rows<{ text: string; subject: string }>("SELECT text, subject FROM notes")).toEqual([
      { text: "The user runs the Berlin marathon next September", subject: "user" },
    ]);
  });

  it("forgets the extracted memories with the messages on undo", async () => {
    await runCli(open, ["import-history", file(), "--me", "Jonas", "--apply"]);
    const dry = await runCli(open, ["import-history", "undo", "1"]);
    expect(dry.out).toContain("5 messages would be forgotten everywhere, with 3 memories extracted from them");
    await runCli(open, ["import-history", "undo", "1", "--apply"]);
    expect(rows("SELECT id FROM notes")).toHaveLength(0);
  });
});
