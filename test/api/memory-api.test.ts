import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ANY_USER, NotFoundError } from "../../core/index.ts";
import { makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { seedDb } from "../helpers/seed-db.ts";
import { readDb } from "../helpers/read-db.ts";
import { memoryTable } from "../helpers/memory-table.ts";

describe("memory API: one ownership rule for every caller", () => {
  let t: TestLilo;
  let mine: number;
  let hers: number;
  let corrected: number;
  beforeEach(async () => {
    t = makeTestLilo();
    const add = async (text: string, userId: string) => {
      const r = await t.lilo.memory.add({ text, userId });
      if (!r.added) throw new Error("setup failed");
      return r.id;
    };
    mine = await add("Chris mag Tee", "chris");
    hers = await add("Anna mag Kaffee", "anna");
    corrected = await add("Chris wohnt in Köln", "chris");
    // As a correction leaves it: the row kept, marked superseded.
    const at = t.lilo.clock.now().toISOString();
    seedDb(t.lilo, (sql) => memoryTable(sql, "notes").supersede(corrected, at));
  });
  afterEach(() => t.cleanup());

  it("a user sees only their own live entries", () => {
    expect(t.lilo.memory.get("chris", "notes", mine)).toMatchObject({ id: mine, text: "Chris mag Tee", userId: "chris", store: "notes" });
    expect(t.lilo.memory.get("chris", "notes", hers)).toBeUndefined();
    expect(t.lilo.memory.get("chris", "notes", corrected)).toBeUndefined();
    expect(t.lilo.memory.getMany("chris", "notes", [hers, corrected, mine, 999]).map((e) => e.id)).toEqual([mine]);
    expect(t.lilo.memory.list("chris").map((e) => e.id)).toEqual([mine]);
  });

  it("treats another user's, a superseded or a missing entry alike: the same empty answer, nothing changed", async () => {
    for (const id of [hers, corrected, 999]) {
      expect(await t.lilo.memory.forget("chris", "notes", id)).toBeUndefined();
      expect(await t.lilo.memory.edit("chris", "notes", id, "anders")).toBeUndefined();
    }
    expect(t.lilo.memory.get(ANY_USER, "notes", hers)?.text).toBe("Anna mag Kaffee");
    expect(
      (readDb(t.lilo).get("SELECT superseded_at FROM notes WHERE id = ?", corrected) as { superseded_at: string | null } | undefined)?.superseded_at,
    ).toBeTruthy();
  });

  it("lets a user edit or forget their own entry", async () => {
    expect(await t.lilo.memory.edit("chris", "notes", mine, "Chris mag grünen Tee")).toMatchObject({ text: "Chris mag grünen Tee" });
    expect(await t.lilo.memory.forget("chris", "notes", mine)).toMatchObject({ id: mine, text: "Chris mag grünen Tee" });
    expect(t.lilo.memory.get(ANY_USER, "notes", mine)).toBeUndefined();
  });

  it("lets the operator forget anyone's entry, failing with NotFoundError only on a missing one", async () => {
    expect(await t.lilo.memory.forget(ANY_USER, "notes", hers)).toMatchObject({ userId: "anna" });
    await expect(t.lilo.memory.forget(ANY_USER, "notes", 999)).rejects.toBeInstanceOf(NotFoundError);
  });
});
