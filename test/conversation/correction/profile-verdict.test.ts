import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";

// "stimmt nicht" / "veraltet" on a profile entry is logged with its category and origin, and undo puts it back.
describe("a /why verdict on a profile entry is logged and undoable", () => {
  const USER = "owner";
  let t: TestLilo;
  beforeAll(() => {
    t = makeTestLilo();
  });
  afterAll(async () => {
    await t.cleanup();
  });
  const profile = () => t.lilo.profile.list(USER).map((p) => ({ id: p.id, category: p.category, text: p.text }));

  it("veraltet removes a profile entry undoably: logged with category and origin, restored under its id", async () => {
    const { id } = t.lilo.profile.add(USER, "work", "Arbeitet als Bäcker");
    t.lilo.profile.add(USER, "relationships", "Hat eine Schwester");
    const outcome = await t.lilo.why.verdict(USER, `P${id}`, "outdated");
    expect(outcome).toMatchObject({ store: "profile", id, verdict: "outdated", correctionId: expect.any(Number) });
    expect(profile().map((p) => p.text)).toEqual(["Hat eine Schwester"]);
    expect(t.lilo.why.item(USER, `P${id}`)).toBeUndefined();
    const entry = t.lilo.corrections.get(outcome!.correctionId!)!;
    expect(entry).toMatchObject({
      userId: USER,
      store: "profile",
      rowId: id,
      action: "delete",
      oldText: "Arbeitet als Bäcker",
      oldCategory: "work",
      oldProvenance: { kind: "operator" },
      triggerText: "veraltet",
      undoneAt: null,
    });
    expect(entry.reason).toMatch(/outdated on \d{4}-\d{2}-\d{2}/);

    const undone = await t.lilo.corrections.undo(entry.id);
    expect(undone.undoneAt).not.toBeNull();
    expect(undone.restoredRowId).toBe(id);
    expect(profile()).toContainEqual({ id, category: "work", text: "Arbeitet als Bäcker" });
    expect(t.lilo.why.item(USER, `P${id}`)).toMatchObject({ text: "Arbeitet als Bäcker", provenance: { kind: "operator" } });
    await expect(t.lilo.corrections.undo(entry.id)).rejects.toThrow(/undone already/);
  });

  it("stimmt nicht removes a profile entry at once, logged, without a question", async () => {
    const { id } = t.lilo.profile.add(USER, "preferences", "Spielt Schach");
    const wrong = await t.lilo.why.verdict(USER, `P${id}`, "wrong");
    expect(wrong?.question).toBeUndefined();
    expect(t.lilo.corrections.get(wrong!.correctionId!)).toMatchObject({ store: "profile", oldCategory: "preferences", triggerText: "stimmt nicht" });
    expect(profile().some((p) => p.text === "Spielt Schach")).toBe(false);
  });

  it("undo does not double a profile entry the user added again meanwhile", async () => {
    const { id } = t.lilo.profile.add(USER, "preferences", "Spielt Go");
    const wrong = await t.lilo.why.verdict(USER, `P${id}`, "wrong");
    // The user says it again before the undo: the entry is there once.
    t.lilo.profile.add(USER, "preferences", "Spielt Go");
    await t.lilo.corrections.undo(wrong!.correctionId!);
    expect(profile().filter((p) => p.text === "Spielt Go")).toHaveLength(1);
  });

  it("undo gives a restored profile entry a new id when its old one was reused", async () => {
    // The old id went to a new entry meanwhile (SQLite reuses the highest id): the restored entry gets a new one.
    const last = t.lilo.profile.add(USER, "other", "Isst gern Linsen");
    const gone = await t.lilo.why.verdict(USER, `P${last.id}`, "outdated");
    const taken = t.lilo.profile.add(USER, "other", "Isst gern Reis");
    expect(taken.id).toBe(last.id);
    const back = await t.lilo.corrections.undo(gone!.correctionId!);
    const food = profile().filter((p) => p.category === "other");
    expect(food.map((p) => p.text).sort()).toEqual(["Isst gern Linsen", "Isst gern Reis"]);
    expect(food.find((p) => p.text === "Isst gern Reis")!.id).toBe(last.id);
    // The undo says where the restored entry is now, not its old id (another entry's).
    expect(back.restoredRowId).toBe(food.find((p) => p.text === "Isst gern Linsen")!.id);
    expect(back.restoredRowId).not.toBe(last.id);
  });

  it("a verdict on another user's profile entry does nothing", async () => {
    const { id } = t.lilo.profile.add("someone-else", "work", "Ist Lehrerin");
    const before = t.lilo.corrections.list().length;
    expect(await t.lilo.why.verdict(USER, `P${id}`, "outdated")).toBeUndefined();
    expect(t.lilo.profile.list("someone-else").map((p) => p.text)).toEqual(["Ist Lehrerin"]);
    expect(t.lilo.corrections.list()).toHaveLength(before);
  });
});
