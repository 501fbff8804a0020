import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createLilo, type Lilo } from "../../core/index.ts";
import { openLiloDatabase, type Db } from "../../core/foundation/store/db.ts";
import { makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { runCli } from "../helpers/cli.ts";

const FIXTURES = join(import.meta.dirname, "../fixtures/history");

describe("lilo import-history", () => {
  let t: TestLilo;
  let db: Db;
  const open = (): Lilo => createLilo(t.lilo.config, { embedder: t.embedder, db, clock: t.lilo.clock });
  const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  const messages = () => count("SELECT count(*) AS n FROM messages WHERE redacted_at IS NULL");
  const chat = (name: string) => {
    const file = join(t.dir, name);
    copyFileSync(join(FIXTURES, name), file);
    return file;
  };

  beforeEach(() => {
    t = makeTestLilo({ LILO_TIMEZONE: "Europe/Berlin", LILO_TERMINAL_USER: "jonas" });
    db = openLiloDatabase(t.lilo.config);
  });
  afterEach(async () => {
    db.close();
    await t.cleanup();
  });

  it("names the format, the speakers and the message count in a dry run, and writes nothing", async () => {
    const r = await runCli(open, ["import-history", chat("whatsapp-android-de.txt")]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("format: whatsapp");
    expect(r.out).toContain("Mara: 3 messages");
    expect(r.out).toContain("which speaker are you? Run again with --me NAME (one of: Mara, Jonas)");
    expect(messages()).toBe(0);
    expect(count("SELECT count(*) AS n FROM history_imports")).toBe(0);
  });

  it("writes the chat into the log with the original times, the other party under her own name", async () => {
    const r = await runCli(open, ["import-history", chat("whatsapp-android-de.txt"), "--me", "Jonas", "--apply"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("added 5 messages");
    const rows = db.prepare("SELECT role, speaker, text, created_at FROM messages ORDER BY created_at").all() as {
      role: string;
      speaker: string | null;
      created_at: string;
    }[];
    expect(rows.map((x) => [x.role, x.speaker])).toEqual([
      ["user", "Mara"],
      ["user", null],
      ["user", "Mara"],
      ["user", null],
      ["user", "Mara"],
    ]);
    expect(rows[0]!.created_at).toBe("2025-11-03T17:02:00.000Z");
  });

  it("adds nothing when the same export is imported again", async () => {
    await runCli(open, ["import-history", chat("whatsapp-android-de.txt"), "--me", "Jonas", "--apply"]);
    const again = await runCli(open, ["import-history", chat("whatsapp-android-de.txt"), "--me", "Jonas", "--apply"]);
    expect(again.out).toContain("nothing new");
    expect(messages()).toBe(5);
  });

  it("adds only the new messages of a later, overlapping export of the same chat", async () => {
    const file = chat("whatsapp-android-de.txt");
    await runCli(open, ["import-history", file, "--me", "Jonas", "--apply"]);
    writeFileSync(file, "04.11.25, 09:20 - Mara: Super! Dann sehen wir uns an der Wand.\n05.11.25, 20:00 - Jonas: Die Kletterhalle heißt Nordwand.\n");
    const r = await runCli(open, ["import-history", file, "--me", "Jonas", "--apply"]);
    expect(r.out).toContain("added 1 messages");
    expect(messages()).toBe(6);
  });

  it("puts the imported fact on the cheat sheet under its speaker's name, never the person's", async () => {
    await runCli(open, ["import-history", chat("whatsapp-android-de.txt"), "--me", "Jonas", "--apply"]);
    const r = await runCli(open, ["preview", "Weißt du noch, wie Maras neue Wohnung ist?"]);
    expect(r.out).toMatch(/\] Mara: Meine neue Wohnung ist in der Gartenstraße 12/);
    expect(r.out).not.toMatch(/(Jonas|jonas|Gegenüber|User|Du): Meine neue Wohnung/);
    // An old chat is no talk with Lilo: no "welcome back after 13 months" from it.
    expect(r.out).not.toContain("Die letzten Nachrichten vor der Pause");
  });

  it("undoes an import through forget everywhere: a dry run first, then every message it brought is forgotten", async () => {
    await runCli(open, ["import-history", chat("claude-conversations.json"), "--apply"]);
    const list = await runCli(open, ["import-history", "list"]);
    const id = /^(\d+) /m.exec(list.out)![1]!;
    const dry = await runCli(open, ["import-history", "undo", id]);
    expect(dry.out).toContain("2 messages would be forgotten");
    expect(messages()).toBe(2);
    await runCli(open, ["import-history", "undo", id, "--apply"]);
    expect(messages()).toBe(0);
    expect(count("SELECT count(*) AS n FROM messages WHERE text LIKE '%Brotzilla%'")).toBe(0);
    expect((await runCli(open, ["import-history", "list"])).out).toContain("(undone)");
  });

  it("refuses a garbled file with a sentence and imports nothing", async () => {
    const file = join(t.dir, "conversations.json");
    writeFileSync(file, '[{"name": "x", "chat_messages": [{"sender": "human", "text": "hi"');
    const r = await runCli(open, ["import-history", file, "--apply"]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/conversations\.json: broken JSON at line 1/);
    expect(messages()).toBe(0);
  });
});
