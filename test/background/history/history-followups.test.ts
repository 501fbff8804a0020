import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createLilo, fixedClock, type Lilo } from "../../../core/index.ts";
import { openLiloDatabase, type Db } from "../../../core/foundation/store/db.ts";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";
import { runCli } from "../../helpers/cli.ts";
import { startFakeOpenAI, type FakeOpenAI, type OpenAIRequestBody } from "../../fakes/fake-openai.ts";

/** The import runs on Monday, 7 December 2026. */
const NOW = "2026-12-07T10:00:00Z";

/** A chat with Mara: a dentist appointment planned in March 2023 (its day tells the parser the day comes first), and one planned two days before the import. */
const CHAT = [
  "16.03.23, 19:10 - Jonas: Am Donnerstag habe ich den Zahnarzttermin, drück mir die Daumen.",
  "16.03.23, 19:12 - Mara: Viel Glück!",
  "05.12.26, 11:00 - Jonas: Ich habe am Donnerstag einen Zahnarzttermin, endlich.",
  "05.12.26, 11:02 - Mara: Oh, viel Erfolg! Und wie läuft der Umzug?",
  "05.12.26, 11:03 - Jonas: Der Umzug zieht sich. Letzten Donnerstag war ich übrigens beim Friseur.",
].join("\n");

/**
 * The model names follow-ups for every piece, asked or not: the old
 * conversation's must be dropped by the answer's schema itself.
 */
function answer(body: OpenAIRequestBody): string {
  const chat = body.messages.at(-1)!.content;
  const empty = { facts: [], profile: [], important: [] };
  if (chat.includes("[2023-03-16")) return JSON.stringify({ ...empty, followups: [{ text: "Wie war der Zahnarzttermin im März?", date: "2026-12-10" }] });
  return JSON.stringify({
    ...empty,
    followups: [
      { text: "Wie war der Zahnarzttermin am Donnerstag?", date: "2026-12-10" },
      // Already past on the day of the import: the chance to ask is gone.
      { text: "Wie war der Friseurbesuch?", date: "2026-12-03" },
      // No day named: due as a live follow-up, two weeks after the conversation.
      { text: "Wie geht es mit dem Umzug voran?", date: null },
      // Not a calendar day: the item is dropped, the others stay.
      { text: "Wie war das Konzert?", date: "2026-02-30" },
    ],
  });
}

describe("follow-up topics from an imported chat", () => {
  let llm: FakeOpenAI;
  let t: TestLilo;
  let db: Db;
  const clock = fixedClock(NOW);
  const open = (): Lilo => createLilo(t.lilo.config, { embedder: t.embedder, db, clock });
  const topics = () =>
    db.prepare("SELECT text, kind, status, due_at, provenance, provenance_ref FROM topics ORDER BY due_at").all() as Record<string, string>[];
  const file = () => {
    const f = join(t.dir, "WhatsApp Chat mit Mara.txt");
    writeFileSync(f, CHAT);
    return f;
  };
  const system = (chatDate: string) => llm.requests.find((r) => r.messages.at(-1)!.content.includes(`[${chatDate}`))!.messages[0]!.content;

  beforeAll(async () => {
    llm = await startFakeOpenAI();
    llm.replyAlways(answer);
  });
  afterAll(() => llm.close());
  beforeEach(() => {
    llm.requests.length = 0;
    t = makeTestLilo(
      {
        LILO_TIMEZONE: "Europe/Berlin",
        LILO_TERMINAL_USER: "jonas",
        OPENAI_API_KEY: "sk-test",
        OPENAI_BASE_URL: llm.baseURL,
        LILO_CHAT_MODEL: "openai:gpt-4o-mini",
      },
      { clock },
    );
    db = openLiloDatabase(t.lilo.config);
  });
  afterEach(async () => {
    db.close();
    await t.cleanup();
  });

  it("turns a recent conversation's plan into a topic with the import as its origin, due the day after", async () => {
    const r = await runCli(open, ["import-history", file(), "--me", "Jonas", "--apply"]);
    expect(r.err).toBe("");
    expect(r.out).toContain("import 1: memories done");
    expect(topics()).toEqual([
      {
        text: "Wie war der Zahnarzttermin am Donnerstag?",
        kind: "followup",
        status: "open",
        // Midnight after Thursday, 10 December, in Berlin.
        due_at: "2026-12-10T23:00:00.000Z",
        provenance: "import",
        provenance_ref: "whatsapp:1",
      },
      {
        text: "Wie geht es mit dem Umzug voran?",
        kind: "followup",
        status: "open",
        due_at: "2026-12-19T10:03:00.000Z",
        provenance: "import",
        provenance_ref: "whatsapp:1",
      },
    ]);
    expect(system("2026-12-05")).toContain('"followups"');
    const list = await runCli(open, ["topics", "list"]);
    expect(list.out).toMatch(/open\s+followup\s+due 2026-12-11 00:00\s+Wie war der Zahnarzttermin am Donnerstag\? {2}\(from import whatsapp:1\)/);
  });

  it("never asks an old conversation for topics, and keeps none from its answer", async () => {
    await runCli(open, ["import-history", file(), "--me", "Jonas", "--apply"]);
    expect(llm.requests).toHaveLength(2);
    const old = system("2023-03-16");
    expect(old).not.toMatch(/followup/i);
    expect(old).toContain("old chat");
    expect(topics().map((x) => x.text)).not.toContain("Wie war der Zahnarzttermin im März?");
  });

  it("asks no conversation for topics when the window is 0", async () => {
    const config = { ...t.lilo.config, topics: { ...t.lilo.config.topics, importRecentDays: 0 } };
    await runCli(() => createLilo(config, { embedder: t.embedder, db, clock }), ["import-history", file(), "--me", "Jonas", "--apply"]);
    expect(llm.requests.map((r) => r.messages[0]!.content).filter((s) => s.includes("followups"))).toEqual([]);
    expect(topics()).toEqual([]);
  });

  it("estimates in the dry run the tokens the calls then send, the recent conversation's longer prompt included", async () => {
    const dry = await runCli(open, ["import-history", file(), "--me", "Jonas"]);
    const estimated = Number(/about (\d+) tokens in/.exec(dry.out)![1]);
    await runCli(open, ["import-history", file(), "--me", "Jonas", "--apply"]);
    const sent = llm.requests.reduce((n, r) => n + r.messages.reduce((m, x) => m + x.content.length, 0), 0) / 4;
    expect(Math.abs(estimated - sent) / sent).toBeLessThan(0.05);
  });

  it("forgets the import's topics on undo", async () => {
    await runCli(open, ["import-history", file(), "--me", "Jonas", "--apply"]);
    const dry = await runCli(open, ["import-history", "undo", "1"]);
    expect(dry.out).toContain("with 2 memories extracted from them");
    await runCli(open, ["import-history", "undo", "1", "--apply"]);
    expect(topics()).toEqual([]);
    expect((await runCli(open, ["topics", "list"])).out).toBe("no open topics");
  });
});
