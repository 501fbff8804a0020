import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createLilo, fixedClock, type Lilo } from "../../core/index.ts";
import { openLiloDatabase, type Db } from "../../core/foundation/store/db.ts";
import { makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { runCli } from "../helpers/cli.ts";
import { SettingsStore } from "../../core/foundation/store/settings.ts";
import { atTime } from "../helpers/clock-at.ts";

/** Live entries of one memory store, read on the test's own connection. */
const liveCount = (sql: Db, store: string) => (sql.prepare(`SELECT count(*) AS n FROM ${store} WHERE superseded_at IS NULL`).get() as { n: number }).n;

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
  let clock: ReturnType<typeof fixedClock>;
  const open = (): Lilo => createLilo(t.lilo.config, { embedder: t.embedder, db, clock: t.lilo.clock });

  beforeEach(async () => {
    const now = "2025-03-05T08:00:00.000Z";
    clock = fixedClock(now);
    t = makeTestLilo({}, { clock });
    db = openLiloDatabase(t.lilo.config);
    for (const m of MEMORY) await t.lilo.memory.add({ ...m, userId: "owner" });
    await t.lilo.memory.add({ text: "Anna mag Jazz", userId: "anna" });
    t.lilo.profile.add("owner", "work", "Christian ist Lehrer");
    t.lilo.rules.add("owner", "Antworte kurz");
    t.lilo.topics.add("owner", "Wie war der Zahnarzt?", "followup", "2025-03-10T08:00:00.000Z");
    // Settings are never exported, whatever they hold (stored on the test's own connection: no use case stores a key).
    new SettingsStore(db).set("api_key", "sk-ant-SECRET-123", now);
    new SettingsStore(db).set("chat_model", "anthropic:claude-sonnet-4-5", now);
  });
  afterEach(async () => {
    db.close();
    await t.cleanup();
  });

  it("writes every store of one user as JSON Lines, no settings, no secrets", async () => {
    const file = join(t.dir, "owner.jsonl");
    const res = await runCli(open, ["export", "--plain", "--out", file]);
    expect(res.code).toBe(0);
    expect(res.out).toContain("exported 8 lines");
    const raw = readFileSync(file, "utf8");
    expect(raw).not.toContain("SECRET");
    expect(raw).not.toContain("chat_model");
    const lines = raw
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.store)).toEqual(["notes", "notes", "important", "thoughts", "diary", "profile", "rules", "topics"]);
    for (const l of lines) {
      expect(l.userId).toBe("owner");
      expect(typeof l.text).toBe("string");
      expect(typeof l.createdAt).toBe("string");
    }
    expect(lines.find((l) => l.store === "profile")).toMatchObject({ category: "work", text: "Christian ist Lehrer" });
    expect(lines.find((l) => l.store === "rules")).toMatchObject({ enabled: true });
    expect(lines.find((l) => l.store === "topics")).toMatchObject({ kind: "followup", status: "open", dueAt: "2025-03-10T08:00:00.000Z" });

    const all = await runCli(open, ["export", "--plain", "--all", "--store", "notes"]);
    expect(all.out.split("\n").map((l) => JSON.parse(l).text)).toEqual(["Christian mag Kino", "Christian trinkt Tee", "Anna mag Jazz"]);
    expect((await runCli(open, ["export", "--all", "--user", "anna"])).code).toBe(1);
    expect((await runCli(open, ["export", "--store", "settings"])).err).toContain('unknown store "settings"');
  });

  it("includes chat messages only with --messages", async () => {
    t.lilo.recall.importChat([{ userId: "owner", role: "user", text: "Hallo Lilo", createdAt: "2025-03-05T09:00:00.000Z" }]);
    const without = await runCli(open, ["export", "--plain", "--out", join(t.dir, "a.jsonl")]);
    const withMessages = await runCli(open, ["export", "--plain", "--messages", "--out", join(t.dir, "b.jsonl")]);
    expect(without.out).not.toContain("messages");
    expect(withMessages.out).toContain("messages 1");
    const last = readFileSync(join(t.dir, "b.jsonl"), "utf8").trim().split("\n").at(-1)!;
    expect(JSON.parse(last)).toMatchObject({ store: "messages", text: "Hallo Lilo", role: "user", userId: "owner", createdAt: "2025-03-05T09:00:00.000Z" });
  });

  it("marks an answer the person stopped while it was written as stopped in the export", async () => {
    t.lilo.recall.importChat([
      { userId: "owner", role: "user", text: "Erzähl mir was", createdAt: "2025-03-05T09:00:00.000Z" },
      { userId: "owner", role: "assistant", text: "Es war einmal", createdAt: "2025-03-05T09:00:05.000Z" },
    ]);
    db.prepare("UPDATE messages SET stopped = 1 WHERE text = 'Es war einmal'").run();
    const file = join(t.dir, "chat.jsonl");
    expect((await runCli(open, ["export", "--plain", "--messages", "--out", file])).code).toBe(0);
    const chat = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.store === "messages");
    expect(chat.map((l) => [l.text, l.stopped])).toEqual([
      ["Erzähl mir was", undefined],
      ["Es war einmal", true],
    ]);
  });

  it("round-trips every exported store through lilo import into an empty data dir, field for field", async () => {
    const mem = t.lilo.memory;
    // What a plain add loses is here on purpose: a thought's origin and questions, the diary's day, the same diary text twice.
    await mem.add({
      text: "Was beschäftigt ihn wirklich? Die Arbeit.",
      userId: "owner",
      store: "thoughts",
      createdAt: "2025-03-05T22:00:00.000Z",
      extra: { origin: "reflection", questions: '["Was beschäftigt ihn?"]' },
    });
    await mem.add({
      text: "Ein ruhiger Tag.",
      userId: "owner",
      store: "diary",
      createdAt: "2025-03-05T23:45:00.000Z",
      extra: { day: "2025-03-05" },
      allowDuplicate: true,
    });
    await mem.add({
      text: "Ein ruhiger Tag.",
      userId: "owner",
      store: "diary",
      createdAt: "2025-03-06T23:45:00.000Z",
      extra: { day: "2025-03-06" },
      allowDuplicate: true,
    });
    await mem.add({
      text: "Christian hat Geburtstag im Mai",
      userId: "owner",
      store: "important",
      extra: { weight: 3 },
      createdAt: "2025-03-06T09:00:00.000Z",
    });
    clock.set("2025-03-06T08:00:00.000Z");
    const rule = t.lilo.rules.add("owner", "Keine Emojis");
    t.lilo.rules.setEnabled(rule, false);
    const topic = t.lilo.topics.add("owner", "Wie lief die Prüfung?", "concern", "2025-03-07T08:00:00.000Z");
    atTime(clock, "2025-03-08T08:00:00.000Z", () => t.lilo.topics.markDone(topic));
    t.lilo.profile.add("owner", "person", "Christian ist 41");

    const file = join(t.dir, "all.jsonl");
    expect((await runCli(open, ["export", "--plain", "--out", file])).code).toBe(0);
    const before = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const stores = new Set(before.map((l) => l.store));
    for (const s of ["notes", "important", "thoughts", "diary", "profile", "rules", "topics"]) expect(stores.has(s)).toBe(true);

    const fresh = makeTestLilo();
    const freshDb = openLiloDatabase(fresh.lilo.config);
    const openFresh = (): Lilo => createLilo(fresh.lilo.config, { embedder: fresh.embedder, db: freshDb, clock: fresh.lilo.clock });
    try {
      const dry = await runCli(openFresh, ["import", file]);
      expect(dry.code).toBe(0);
      expect(dry.out).toMatch(/diary\s+3\s+0\s+0/);
      expect(liveCount(freshDb, "notes")).toBe(0);
      const imp = await runCli(openFresh, ["import", file, "--apply"]);
      expect(imp.err).toBe("");
      expect(imp.out).toContain(`imported ${before.length}, skipped 0 duplicates`);
      const after = (await runCli(openFresh, ["export", "--plain"])).out.split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
      const withoutId = (l: Record<string, unknown>) => ({ ...l, id: undefined });
      // A line without a recorded origin is marked as imported, so its provenance never claims a conversation it did not come from; a recorded one is kept.
      const imported = (l: Record<string, unknown>) => (l.store === "rules" || l.store === "topics" || l.provenance ? l : { ...l, provenance: "import" });
      expect(after.map(withoutId)).toEqual(before.map(imported).map(withoutId));
      // Every imported memory is findable: rows = vectors.
      const check = await fresh.lilo.maintenance.check();
      expect([check.rowsWithoutVector, check.vectorsWithoutRow]).toEqual([[], []]);
      expect(check.rows).toBe(check.vectors);
    } finally {
      freshDb.close();
      await fresh.cleanup();
    }
  });

  it("writes an encrypted file by default, which import reads with the key and refuses with another, naming LILO_DATA_KEY", async () => {
    const file = join(t.dir, "sealed.lilo");
    const res = await runCli(open, ["export", "--out", file]);
    expect(res.code).toBe(0);
    expect(res.err).toBe("");
    const bytes = readFileSync(file);
    expect(bytes.includes(Buffer.from("Christian mag Kino"))).toBe(false);
    expect(bytes.subarray(0, 8).toString("latin1")).toBe("LILOSEAL");
    expect((await runCli(open, ["export"])).err).toContain("--out FILE, or add --plain");

    const plain = await runCli(open, ["export", "--plain", "--store", "notes"]);
    expect(plain.err).toContain("warning: --plain: the export is not encrypted");

    const fresh = makeTestLilo();
    const other = makeTestLilo({ LILO_DATA_KEY: "7a".repeat(32) });
    const freshDb = openLiloDatabase(fresh.lilo.config);
    const otherDb = openLiloDatabase(other.lilo.config);
    try {
      const openFresh = (): Lilo => createLilo(fresh.lilo.config, { embedder: fresh.embedder, db: freshDb, clock: fresh.lilo.clock });
      const imp = await runCli(openFresh, ["import", file, "--apply"]);
      expect(imp.err).toBe("");
      expect(imp.out).toContain("imported 8, skipped 0 duplicates");
      const openOther = (): Lilo => createLilo(other.lilo.config, { embedder: other.embedder, db: otherDb, clock: other.lilo.clock });
      const refused = await runCli(openOther, ["import", file]);
      expect(refused.code).toBe(1);
      expect(refused.err).toContain(`LILO_DATA_KEY does not open ${file}`);
    } finally {
      freshDb.close();
      otherDb.close();
      await fresh.cleanup();
      await other.cleanup();
    }
  });

  it("imports nothing from a truncated or wrong-schema file", async () => {
    const file = join(t.dir, "all.jsonl");
    await runCli(open, ["export", "--plain", "--out", file]);
    const lines = readFileSync(file, "utf8").trim().split("\n");
    const fresh = makeTestLilo();
    const freshDb = openLiloDatabase(fresh.lilo.config);
    const openFresh = (): Lilo => createLilo(fresh.lilo.config, { embedder: fresh.embedder, db: freshDb, clock: fresh.lilo.clock });
    try {
      const truncated = join(t.dir, "truncated.jsonl");
      writeFileSync(truncated, `${lines.slice(0, 3).join("\n")}\n${lines[3]!.slice(0, 20)}`);
      const a = await runCli(openFresh, ["import", truncated, "--apply"]);
      expect(a.code).toBe(1);
      expect(a.err).toContain("line 4: not JSON");
      const wrong = join(t.dir, "wrong.jsonl");
      writeFileSync(wrong, lines.map((l) => l.replace('"text"', '"body"')).join("\n"));
      const b = await runCli(openFresh, ["import", wrong, "--apply"]);
      expect(b.code).toBe(1);
      const counts = ["notes", "important", "thoughts", "diary"].map((s) => liveCount(freshDb, s));
      expect(counts).toEqual([0, 0, 0, 0]);
      expect(fresh.lilo.profile.list("owner")).toEqual([]);
    } finally {
      freshDb.close();
      await fresh.cleanup();
    }
  });
});
