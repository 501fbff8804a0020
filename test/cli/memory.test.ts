import { describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createLilo, loadConfig, type Lilo } from "../../core/index.ts";
import { basisVector, vectorWithCosine, ControlledEmbedder } from "../fakes/controlled-embedder.ts";
import { openLiloDatabase } from "../../core/foundation/store/db.ts";
import { makeTestLilo, TEST_DATA_KEY } from "../helpers/test-lilo.ts";
import { cliDatabase, runCli } from "../helpers/cli.ts";
import { ProfileStore } from "../../core/foundation/store/profile.ts";
import { memoryTable } from "../helpers/memory-table.ts";
import { EmbeddedIndex } from "../../core/foundation/providers/embedded-index/embedded-index.ts";

const DIM = 64;

describe("lilo memory / doctor / reindex", () => {
  const w = cliDatabase();
  // The CLI closes the Lilo it opens; each call gets a fresh one on the same file and embedder.
  const open = (): Lilo => createLilo(w.t.lilo.config, { embedder: w.t.embedder, db: w.db, clock: w.t.lilo.clock });

  /** Live notes in the file, read on the test's own connection. */
  const liveNotes = () => (w.db.prepare("SELECT count(*) AS n FROM notes WHERE superseded_at IS NULL").get() as { n: number }).n;

  it("imports JSON Lines all or nothing, then finds them with lilo memory search --json", async () => {
    const q = basisVector(DIM, 0);
    w.t.embedder.set("Kino", q);
    w.t.embedder.set("Christian geht gern ins Kino", vectorWithCosine(q, 0.9, 1));
    w.t.embedder.set("Christian trinkt Tee", vectorWithCosine(q, 0.4, 2));
    w.t.embedder.set("Anna mag Kino", q);
    const file = join(w.t.dir, "import.jsonl");
    writeFileSync(
      file,
      [
        JSON.stringify({ text: "Christian geht gern ins Kino", createdAt: "2025-05-01T10:00:00Z" }),
        JSON.stringify({ text: "Christian trinkt Tee", store: "notes", userId: "owner" }),
        JSON.stringify({ text: "Christian geht gern ins Kino" }),
        JSON.stringify({ text: "Anna mag Kino", userId: "anna" }),
        "",
        "{ kaputt",
        JSON.stringify({ store: "notes" }),
      ].join("\n"),
    );
    // All or nothing: a file with invalid lines imports nothing, and says so per line.
    const bad = await runCli(open, ["memory", "import", file, "--apply"]);
    expect(bad.out).toContain("2 invalid lines: nothing was imported");
    expect(bad.err).toContain("line 6: not JSON");
    expect(bad.err).toContain("line 7: text");
    expect(bad.code).toBe(1);
    expect(liveNotes()).toBe(0);
    writeFileSync(file, readFileSync(file, "utf8").split("\n").slice(0, 5).join("\n"));
    // A dry run first: what would be added and skipped, nothing written.
    const dry = await runCli(open, ["memory", "import", file]);
    expect(dry.out).toMatch(/notes\s+3\s+1\s+0/);
    expect(dry.out).toContain("dry run: nothing changed");
    expect(liveNotes()).toBe(0);
    const imp = await runCli(open, ["memory", "import", file, "--apply"]);
    expect(imp.out).toContain("imported 3, skipped 1 duplicates");
    expect(imp.out).toMatch(/backup: .+\.db/);
    expect(imp.code).toBe(0);

    const res = await runCli(open, ["memory", "search", "Kino", "-k", "10", "--json"]);
    expect(res.code).toBe(0);
    const hits = JSON.parse(res.out) as { id: number; text: string; score: number; createdAt: string }[];
    expect(hits.map((h) => h.text)).toEqual(["Christian geht gern ins Kino", "Christian trinkt Tee"]);
    expect(hits[0]!.createdAt).toBe("2025-05-01T10:00:00.000Z");
    expect(hits[0]!.score).toBeCloseTo(0.9, 3);
    expect(Object.keys(hits[0]!).sort()).toEqual(["createdAt", "id", "keyword", "score", "text"]);
    expect((hits[0] as unknown as { keyword: number }).keyword).toBeGreaterThan(0); // "Kino" is one of its words

    const anna = JSON.parse((await runCli(open, ["memory", "search", "Kino", "--json", "--user", "anna"])).out);
    expect(anna.map((h: { text: string }) => h.text)).toEqual(["Anna mag Kino"]);

    const strong = JSON.parse((await runCli(open, ["memory", "search", "Kino", "--json", "--min-score", "0.5"])).out);
    expect(strong.map((h: { text: string }) => h.text)).toEqual(["Christian geht gern ins Kino"]);
    const wrong = await runCli(open, ["memory", "search", "Kino", "--min-score", "hoch"]);
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain("--min-score must be a number");
  });

  it("edits or deletes a note together with its vector", async () => {
    const q = basisVector(DIM, 0);
    w.t.embedder.set("Kino", q);
    w.t.embedder.set("Christian mag Kino", q);
    w.t.embedder.set("Christian mag Theater", basisVector(DIM, 3));
    const added = await w.t.lilo.memory.add({ text: "Christian mag Kino", userId: "owner" });
    expect(added.added).toBe(true);
    const id = added.added ? added.id : -1;

    const edit = await runCli(open, ["memory", "edit", String(id), "Christian mag Theater"]);
    expect(edit.code).toBe(0);
    // Re-embedded: the old meaning no longer finds it, the new one does.
    expect(await w.t.lilo.memory.search("Kino", { userId: "owner", minScore: 0.5 })).toEqual([]);
    w.t.embedder.set("Bühne", basisVector(DIM, 3));
    expect((await w.t.lilo.memory.search("Bühne", { userId: "owner" })).map((h) => h.text)).toEqual(["Christian mag Theater"]);

    const del = await runCli(open, ["memory", "delete", String(id)]);
    expect(del.code).toBe(0);
    expect(w.db.prepare("SELECT count(*) AS n FROM notes").get()).toEqual({ n: 0 });
    const report = await w.t.lilo.maintenance.check();
    expect(report.vectors).toBe(0);

    const missing = await runCli(open, ["memory", "delete", "999"]);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("No notes entry with id 999");
  });

  it("doctor finds rows without vectors or vectors without rows, repairing them only with --apply", async () => {
    w.t.embedder.set("a", basisVector(DIM, 1));
    const a = await w.t.lilo.memory.add({ text: "a", userId: "owner" });
    const b = await w.t.lilo.memory.add({ text: "b", userId: "owner" });
    if (!a.added || !b.added) throw new Error("setup");
    // Break consistency behind Lilo's back: a row loses its vector, a vector loses its row.
    w.db.prepare("DELETE FROM notes WHERE id = ?").run(a.id);
    memoryTable(w.db, "notes").insert("owner", "c", new Date().toISOString());
    const dry = await runCli(open, ["doctor"]);
    expect(dry.out).toContain("half-added (rows without vectors, will be embedded): 1");
    expect(dry.out).toContain("vectors without rows (will be removed): 1");
    expect(dry.out).toContain("dry run");
    expect(dry.code).toBe(2);
    const fixed = await runCli(open, ["doctor", "--apply"]);
    expect(fixed.out).toContain("backup: ");
    expect(fixed.out).toContain("repaired 2 entries");
    const again = await runCli(open, ["doctor", "--json"]);
    expect(JSON.parse(again.out)).toMatchObject({ rows: 2, vectors: 2, rowsWithoutVector: [], vectorsWithoutRow: [] });
  });

  it("reindex rebuilds the index for a new embedding model, after a dry run", async () => {
    for (const text of ["eins", "zwei", "drei"]) await w.t.lilo.memory.add({ text, userId: "owner" });
    // A new model (other id and dimension) refuses the old index until reindexed.
    const other = new ControlledEmbedder(32);
    const openOther = () => createLilo(loadConfig({ LILO_DATA_DIR: w.t.dir, LILO_DATA_KEY: TEST_DATA_KEY }), { embedder: other, db: w.db });
    const refused = await runCli(openOther, ["memory", "search", "eins", "--json"]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("Run `lilo reindex --apply`");
    // The doctor names the mismatch as a finding instead of refusing with it.
    const doctor = await runCli(openOther, ["doctor"]);
    expect(doctor).toMatchObject({ code: 2, err: "" });
    expect(doctor.out).toMatch(/^vector index: The vector index holds 64-dimensional vectors .* Run `lilo reindex --apply`/);
    const dry = await runCli(openOther, ["reindex"]);
    expect(dry.out).toContain("3 memories would be embedded");
    const run = await runCli(openOther, ["reindex", "--apply"]);
    expect(run.code).toBe(0);
    expect(run.out).toContain("reindexed 3 memories");
    const found = JSON.parse((await runCli(openOther, ["memory", "search", "eins", "--json"])).out);
    expect(found[0].text).toBe("eins");
  });

  it("previews the cheat sheet without storing anything", async () => {
    w.t.embedder.set("Kino?", basisVector(DIM, 0)).set("Christian mag Kino", basisVector(DIM, 0));
    await w.t.lilo.memory.add({ text: "Christian mag Kino", userId: "owner" });
    const r = await runCli(open, ["preview", "Kino?", "--json"]);
    expect(r.code).toBe(0);
    const req = JSON.parse(r.out) as { system: string; messages: { role: string; content: string }[] };
    expect(req.system).toContain("- Christian mag Kino");
    expect(req.messages).toEqual([{ role: "user", content: "Kino?" }]);
    expect(w.db.prepare("SELECT count(*) AS n FROM messages").get()).toEqual({ n: 0 });
    // Without --json: every memory block with its scores, and what the budget left out.
    for (let i = 0; i < 8; i++) new ProfileStore(w.db).add("owner", "person", `Fakt ${i} ${"x".repeat(700)}`, "2026-01-01T00:00:00Z");
    const text = await runCli(open, ["preview", "Kino?"]);
    expect(text.out).toMatch(/── memory blocks/);
    expect(text.out).toMatch(/notes: 1 on the sheet\n {2}\+ #\d+ \[cos 1\.00, bm25 [\d.]+, fused [\d.]+\] Christian mag Kino/);
    expect(text.out).toMatch(/profile: \d+ on the sheet, \d+ left out for budget/);
    expect(text.out).toMatch(/memory part: ≈ \d+ of 2000 tokens/);
  });

  it("preview shows true scores, a memory on the sheet once", async () => {
    w.t.embedder.set("Kino?", basisVector(DIM, 0)).set("Christian mag Kino", basisVector(DIM, 0));
    await w.t.lilo.memory.add({ text: "Christian mag Kino", userId: "owner" });
    await w.t.lilo.memory.add({ text: "Christian mag Kino.", userId: "owner", store: "important", extra: { weight: 2 } });
    const text = (await runCli(open, ["preview", "Kino?"])).out;
    expect(text).toMatch(/important memories: 1 on the sheet\n {2}\+ #\d+ \[weight 2\] Christian mag Kino\./);
    expect(text).toContain("notes: 0 on the sheet");
    expect(text).not.toMatch(/cos 2\.00/);
  });

  it("preview refuses an empty message", async () => {
    const empty = await runCli(open, ["preview", "  "]);
    expect(empty).toMatchObject({ code: 1, err: expect.stringContaining("the message to preview is empty") });
  });
});

describe("lilo doctor and the embedded index's saved copy", () => {
  // The saved copy (the snapshot file) is kept beside an unencrypted database only.
  const w = cliDatabase({ LILO_DATA_KEY: "" });
  const open = (): Lilo => createLilo(w.t.lilo.config, { embedder: w.t.embedder, db: w.db, clock: w.t.lilo.clock });

  it("doctor rebuilds the embedded index from SQLite when its copy disagrees, reporting the copy either way", async () => {
    for (const text of ["eins", "zwei"]) await w.t.lilo.memory.add({ text, userId: "owner" });
    // The test's own Lilo finishes its snapshot writes (they run off the event loop) before the CLI writes its own:
    // when two copies write the same files at once the next start catches up from SQLite, which would show the loss.
    await w.t.lilo.close();
    const ok = await runCli(open, ["doctor"]);
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(
      /index: 2 entries in 1 partitions \(0 with a graph\), 2 vectors in SQLite; last change applied (\d+) of \1; loaded from [^;]+; rebuild needed: no/,
    );
    // A vector vanishes behind the change log's back (say, a hand-edited file): the saved copy no longer matches.
    w.db.prepare("DELETE FROM memory_vectors WHERE row_id = (SELECT MIN(row_id) FROM memory_vectors)").run();
    const dry = await runCli(open, ["doctor", "--json"]);
    expect(dry.code).toBe(2);
    expect(JSON.parse(dry.out).index).toMatchObject({ entries: 2, vectorsInSqlite: 1, rebuildNeeded: expect.stringContaining("SQLite 1") });
    const fixed = await runCli(open, ["doctor", "--apply"]);
    expect(fixed.out).toContain("rebuilt the index from the vectors in SQLite");
    expect(fixed.out).toContain("repaired 1 entries");
    const again = await runCli(open, ["doctor", "--json"]);
    expect(again.code).toBe(0);
    const report = JSON.parse(again.out);
    expect(report).toMatchObject({ rows: 2, vectors: 2, index: { entries: 2, vectorsInSqlite: 2 } });
    expect(report.index.rebuildNeeded).toBeUndefined();
  });
});

describe("lilo doctor right after a start", () => {
  const w = cliDatabase({ LILO_DATA_KEY: "" });
  const open = (): Lilo => createLilo(w.t.lilo.config, { embedder: w.t.embedder, db: w.db, clock: w.t.lilo.clock });

  it("counts a saved graph that is not loaded yet apart from the graphs in use", async () => {
    await w.t.lilo.close();
    // A store large enough for a graph at this size, built at once and saved with the snapshot on close.
    const index = new EmbeddedIndex(w.db, { graphMinSize: 20, graphBuild: "inline" });
    const before = createLilo(w.t.lilo.config, { embedder: w.t.embedder, db: w.db, vectorIndex: index });
    for (let i = 0; i < 25; i++) await before.memory.add({ text: `Notiz Nummer ${i}`, userId: "owner" });
    await before.close();
    await index.close();
    const r = await runCli(open, ["doctor"]);
    expect(r.out).toMatch(/index: 25 entries in 1 partitions \(0 with a graph, 1 more saved, loaded just after a start[,)]/);
  });
});

describe("lilo push", () => {
  it("shows the push log with the target", async () => {
    const t = makeTestLilo();
    const db = openLiloDatabase(t.lilo.config);
    const open = (): Lilo => createLilo(t.lilo.config, { embedder: t.embedder, db });
    try {
      t.lilo.push.registerTransport({ name: "telegram", send: async () => {} });
      expect(await t.lilo.push.send("owner", { kind: "test", text: "Hallo?" })).toBe("not-opted-in");
      t.lilo.push.optIn("owner", { transport: "telegram", chatId: "42" });
      expect(await t.lilo.push.send("owner", { kind: "test", text: "Hallo!" })).toBe("sent");
      const log = await runCli(open, ["push", "log"]);
      expect(log.out).toMatch(/test\s+sent\s+telegram\s+Hallo!/);
      expect(log.out).toMatch(/test\s+not-opted-in\s+-\s+Hallo\?/);
      expect((await runCli(open, ["push", "target"])).out).toBe("owner: telegram chat 42");
    } finally {
      db.close();
      await t.cleanup();
    }
  });
});
