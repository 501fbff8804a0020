import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createLilo, type Lilo } from "../../core/index.ts";
import { openDatabase, type Db } from "../../core/store/db.ts";
import { makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { runCli } from "../helpers/cli.ts";

const MEMORY = [
  { store: "notes", text: "Christian mag Kino", createdAt: "2025-03-01T10:00:00.000Z" },
  { store: "notes", text: "Christian trinkt Tee", createdAt: "2025-03-02T10:00:00.000Z" },
  { store: "important", text: "Christians Mutter heißt Erika", createdAt: "2025-03-03T10:00:00.000Z" },
  { store: "thoughts", text: "Er wirkt müde in letzter Zeit", createdAt: "2025-03-04T22:00:00.000Z" },
  { store: "diary", text: "Heute haben wir über Filme geredet.", createdAt: "2025-03-04T23:45:00.000Z" },
] as const;

describe("lilo export", () => {
  let t: TestLilo;
  let db: Db;
  const open = (): Lilo => createLilo(t.lilo.config, { embedder: t.embedder, db, clock: t.lilo.clock });

  beforeEach(async () => {
    t = makeTestLilo();
    db = openDatabase(t.lilo.config.dbPath);
    for (const m of MEMORY) await t.lilo.memory.add({ ...m, userId: "owner" });
    await t.lilo.memory.add({ text: "Anna mag Jazz", userId: "anna" });
    const now = "2025-03-05T08:00:00.000Z";
    t.lilo.stores.profile.add("owner", "work", "Christian ist Lehrer", now);
    t.lilo.stores.rules.add("owner", "Antworte kurz", now);
    t.lilo.stores.topics.add("owner", "Wie war der Zahnarzt?", "followup", "2025-03-10T08:00:00.000Z", now);
    // Settings are never exported, whatever they hold.
    t.lilo.stores.settings.set("api_key", "sk-ant-SECRET-123", now);
    t.lilo.stores.settings.set("chat_model", "anthropic:claude-sonnet-4-5", now);
  });
  afterEach(async () => {
    db.close();
    await t.cleanup();
  });

  it("writes every store of one user as JSON Lines, no settings, no secrets", async () => {
    const file = join(t.dir, "owner.jsonl");
    const res = await runCli(open, ["export", "--out", file]);
    expect(res.code).toBe(0);
    expect(res.out).toContain("exported 8 lines");
    const raw = readFileSync(file, "utf8");
    expect(raw).not.toContain("SECRET");
    expect(raw).not.toContain("chat_model");
    const lines = raw.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.store)).toEqual(["notes", "notes", "important", "thoughts", "diary", "profile", "rules", "topics"]);
    for (const l of lines) {
      expect(l.userId).toBe("owner");
      expect(typeof l.text).toBe("string");
      expect(typeof l.createdAt).toBe("string");
    }
    expect(lines.find((l) => l.store === "profile")).toMatchObject({ category: "work", text: "Christian ist Lehrer" });
    expect(lines.find((l) => l.store === "rules")).toMatchObject({ enabled: true });
    expect(lines.find((l) => l.store === "topics")).toMatchObject({ kind: "followup", status: "open", dueAt: "2025-03-10T08:00:00.000Z" });

    const all = await runCli(open, ["export", "--all", "--store", "notes"]);
    expect(all.out.split("\n").map((l) => JSON.parse(l).text)).toEqual(["Christian mag Kino", "Christian trinkt Tee", "Anna mag Jazz"]);
    expect((await runCli(open, ["export", "--all", "--user", "anna"])).code).toBe(1);
    expect((await runCli(open, ["export", "--store", "settings"])).err).toContain('unknown store "settings"');
  });

  it("includes chat messages only with --messages", async () => {
    const conv = t.lilo.stores.chatLog.conversationAt("owner", new Date("2025-03-05T09:00:00Z"), 60, null);
    t.lilo.stores.chatLog.append({ userId: "owner", conversationId: conv.id, role: "user", text: "Hallo Lilo", createdAt: "2025-03-05T09:00:00.000Z" });
    const without = await runCli(open, ["export", "--out", join(t.dir, "a.jsonl")]);
    const withMessages = await runCli(open, ["export", "--messages", "--out", join(t.dir, "b.jsonl")]);
    expect(without.out).not.toContain("messages");
    expect(withMessages.out).toContain("messages 1");
    const last = readFileSync(join(t.dir, "b.jsonl"), "utf8").trim().split("\n").at(-1)!;
    expect(JSON.parse(last)).toMatchObject({ store: "messages", text: "Hallo Lilo", role: "user", userId: "owner", createdAt: "2025-03-05T09:00:00.000Z" });
  });

  it("round-trips the memory stores through lilo memory import into a fresh database", async () => {
    const file = join(t.dir, "memory.jsonl");
    expect((await runCli(open, ["export", "--store", "notes,important,thoughts,diary", "--out", file])).code).toBe(0);

    const fresh = makeTestLilo();
    const freshDb = openDatabase(fresh.lilo.config.dbPath);
    const openFresh = (): Lilo => createLilo(fresh.lilo.config, { embedder: fresh.embedder, db: freshDb, clock: fresh.lilo.clock });
    try {
      const imp = await runCli(openFresh, ["memory", "import", file]);
      expect(imp.err).toBe("");
      expect(imp.out).toContain("imported 5, skipped 0 duplicates, 0 invalid lines");
      const again = await runCli(openFresh, ["export", "--store", "notes,important,thoughts,diary"]);
      const got = again.out.split("\n").map((l) => JSON.parse(l) as { store: string; text: string; createdAt: string; userId: string });
      expect(got.map(({ store, text, createdAt, userId }) => ({ store, text, createdAt, userId }))).toEqual(MEMORY.map((m) => ({ ...m, userId: "owner" })));
    } finally {
      freshDb.close();
      await fresh.cleanup();
    }
  });
});
