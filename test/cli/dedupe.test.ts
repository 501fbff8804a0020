import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { createLilo, type Lilo } from "../../core/index.ts";
import { openLiloDatabase, type Db } from "../../core/foundation/store/db.ts";
import { makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { runCli } from "../helpers/cli.ts";

describe("lilo dedupe", () => {
  let t: TestLilo;
  let db: Db;
  const open = (): Lilo => createLilo(t.lilo.config, { embedder: t.embedder, db, clock: t.lilo.clock });
  const ids: Record<string, number> = {};
  const add = async (name: string, text: string, createdAt: string, store: "notes" | "diary" = "notes", userId = "owner") => {
    const r = await t.lilo.memory.add({ text, createdAt, store, userId, allowDuplicate: true });
    if (!r.added) throw new Error(`not added: ${name}`);
    ids[name] = r.id;
  };

  beforeEach(async () => {
    t = makeTestLilo();
    db = openLiloDatabase(t.lilo.config);
    // The newer copy is inserted first: "oldest" means createdAt, not id.
    await add("newer", "Christian mag Kino", "2025-04-02T10:00:00Z");
    await add("oldest", "Christian mag Kino", "2025-04-01T10:00:00Z");
    await add("spaced", "  Christian mag Kino ", "2025-04-03T10:00:00Z");
    await add("other", "Christian mag kino", "2025-04-04T10:00:00Z"); // different case: not an exact duplicate
    await add("anna", "Christian mag Kino", "2025-04-05T10:00:00Z", "notes", "anna"); // another user: not a duplicate
    await add("diary1", "Ein ruhiger Tag.", "2025-04-01T23:45:00Z", "diary");
    await add("diary2", "Ein ruhiger Tag.", "2025-04-02T23:45:00Z", "diary");
  });
  afterEach(async () => {
    db.close();
    await t.cleanup();
  });

  const liveNotes = (userId = "owner") =>
    t.lilo.memory
      .list(userId, { store: "notes", limit: 100 })
      .map((r) => r.id)
      .sort((a, b) => a - b);

  it("a dry run lists the group, changing nothing", async () => {
    const before = liveNotes();
    const res = await runCli(open, ["dedupe"]);
    expect(res.code).toBe(0);
    expect(res.out).toContain(`keep #${ids.oldest}`);
    expect(res.out).toContain(`#${ids.newer}`);
    expect(res.out).toContain(`#${ids.spaced}`);
    expect(res.out).toContain("1 groups, 2 duplicates in notes, important, thoughts");
    expect(res.out).toContain("dry run: nothing changed");
    expect(liveNotes()).toEqual(before);
    expect(readdirSync(t.dir)).not.toContain("backups");
  });

  it("--apply keeps the oldest, forgetting the rest (rows with vectors) after a backup", async () => {
    const res = await runCli(open, ["dedupe", "--store", "notes", "--apply"]);
    expect(res.code).toBe(0);
    expect(res.out).toContain("deleted 2 duplicates");
    expect(readdirSync(join(t.dir, "backups")).length).toBe(1);
    expect(liveNotes()).toEqual([ids.oldest!, ids.other!].sort((a, b) => a - b));
    expect(liveNotes("anna")).toEqual([ids.anna!]);
    expect(t.lilo.memory.list("owner", { store: "diary", limit: 10 })).toHaveLength(2);
    const check = await t.lilo.maintenance.check();
    expect(check.rowsWithoutVector).toEqual([]);
    expect(check.vectorsWithoutRow).toEqual([]);
    expect(check.vectors).toBe(5);
    expect((await runCli(open, ["dedupe"])).out).toContain("0 groups, 0 duplicates");
  });

  it("--user limits the search to one user", async () => {
    await add("anna2", "Christian mag Kino", "2025-04-06T10:00:00Z", "notes", "anna");
    const res = await runCli(open, ["dedupe", "--user", "anna"]);
    expect(res.out).toContain(`keep #${ids.anna}`);
    expect(res.out).toContain("1 groups, 1 duplicates");
    expect(res.out).not.toContain(`#${ids.oldest} `);
  });

  it("refuses the diary with a clear message", async () => {
    const res = await runCli(open, ["dedupe", "--store", "diary", "--apply"]);
    expect(res.code).toBe(1);
    expect(res.err).toContain("the diary is never deduplicated");
    expect(t.lilo.memory.list("owner", { store: "diary", limit: 10 })).toHaveLength(2);
  });
});
