import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScenario, say, USER, type Scenario } from "./scenario.ts";
import { typedChoice } from "../../../core/conversation/correction/marked-wrong-step.ts";

// "stimmt nicht" on /why asks what is wrong; the reply goes to the judge (keep / delete / rewrite, logged, undoable).
describe("stimmt nicht: the reply to 'what is wrong?' is judged", () => {
  let s: Scenario;
  beforeEach(async () => {
    s = await startScenario({ LILO_USER_NAMES: "chris=Christian" });
    s.chat = (m) => `Antwort: ${m}`;
  });
  afterEach(async () => {
    await s.cleanup();
  });

  async function marked(text: string, store: "notes" | "important" = "notes"): Promise<number> {
    const r = await s.t.lilo.memory.add({ text, userId: USER, store, extra: { provenance: "user", provenance_ref: "1" } });
    if (!r.added) throw new Error("setup failed");
    const outcome = await s.t.lilo.why.verdict(USER, `${store === "notes" ? "N" : "I"}${r.id}`, "wrong");
    expect(outcome?.question?.choices.map((c) => c.label)).toEqual(["Löschen", "Stimmt doch"]);
    return r.id;
  }
  const verdict = (id: number, v: object) => (s.judge = JSON.stringify({ verdicts: [{ id: `m${id}`, ...v }] }));

  it("a rewrite judged from the marked memory and the reply alone keeps the memory's store", async () => {
    const id = await marked("Christian hat ein Boot namens Seestern", "important");
    verdict(id, { action: "rewrite", text: "Christian hat ein Boot namens Seepferdchen", reason: "Name falsch" });
    const r = await say(s, "Das Boot heißt Seepferdchen");
    expect(r.text).toMatch(/^✏️ Berichtigt: „Christian hat ein Boot namens Seestern“ → „Christian hat ein Boot namens Seepferdchen“/);
    const [judge] = s.calls("judge");
    expect(judge!.system).toContain("has marked ONE memory");
    expect(judge!.messages[0]!.content).toContain(`id=m${id} (note, 2026-12-02): Christian hat ein Boot namens Seestern`);
    expect(judge!.messages[0]!.content).toContain("Das Boot heißt Seepferdchen");
    expect(judge!.messages[0]!.content).toContain("(none)");
    expect(s.calls("chat")).toHaveLength(0);
    expect(s.t.lilo.memory.list(USER, { store: "important" }).map((m) => m.text)).toEqual(["Christian hat ein Boot namens Seepferdchen"]);
    const entry = s.t.lilo.corrections.list({ userId: USER })[0]!;
    expect(entry).toMatchObject({ store: "important", rowId: id, action: "rewrite", reason: "Name falsch" });
    await s.t.lilo.corrections.undo(entry.id);
    expect(s.t.lilo.memory.list(USER, { store: "important" }).map((m) => m.text)).toEqual(["Christian hat ein Boot namens Seestern"]);
  });

  it("a reply about something else is answered as a normal message, the memory kept", async () => {
    const id = await marked("Christian trinkt gern Earl Grey");
    verdict(id, { action: "keep", reason: "about the weather" });
    const r = await say(s, "Wie wird das Wetter morgen?");
    expect(r.text).toBe("Antwort: Wie wird das Wetter morgen?");
    expect(s.calls("chat")[0]!.system).toContain("Christian hatte „Christian trinkt gern Earl Grey“ als falsch markiert");
    expect(s.t.lilo.memory.get(USER, "notes", id)?.text).toBe("Christian trinkt gern Earl Grey");
    expect(s.t.lilo.corrections.list({ userId: USER })).toEqual([]);
    // The question is closed: the next message is an ordinary one, judged by nobody.
    await say(s, "Und übermorgen?");
    expect(s.calls("judge")).toHaveLength(1);
  });

  it("an unusable judge answer cannot lose the user's verdict: the memory goes, undoably", async () => {
    const id = await marked("Christian spielt Cello");
    s.judge = "Ich bin mir nicht sicher.";
    const r = await say(s, "Ich spiele Bratsche, nicht Cello");
    expect(r.text).toMatch(/^✏️ Gelöscht: „Christian spielt Cello“ \(rückgängig: lilo corrections undo \d+\)$/);
    expect(s.t.lilo.memory.get(USER, "notes", id)).toBeUndefined();
    expect(s.t.lilo.corrections.list({ userId: USER })[0]).toMatchObject({ rowId: id, action: "delete", triggerText: "Ich spiele Bratsche, nicht Cello" });
  });

  it("a rewrite that cannot be stored leaves the memory as it was, saying so", async () => {
    const id = await marked("Christian spielt Geige");
    const embed = s.t.embedder.embed.bind(s.t.embedder);
    s.t.embedder.embed = async (texts) => {
      if (texts.some((t) => t.includes("Bratschist"))) throw new Error("embedder down");
      return embed(texts);
    };
    verdict(id, { action: "rewrite", text: "Christian ist Bratschist", reason: "Bratsche" });
    expect((await say(s, "Ich spiele Bratsche")).text).toBe("Das konnte ich gerade nicht ändern – markiere es mit /why bitte noch einmal.");
    expect(s.t.lilo.memory.get(USER, "notes", id)?.text).toBe("Christian spielt Geige");
    expect(s.t.lilo.corrections.list({ userId: USER })).toEqual([]);
  });

  it("typed 'Stimmt doch' or 'Löschen' settles it without a judge call", async () => {
    const id = await marked("Christian mag Jazz");
    expect((await say(s, "Stimmt doch")).text).toBe("Okay, „Christian mag Jazz“ bleibt, wie es ist.");
    await s.t.lilo.why.verdict(USER, `N${id}`, "wrong");
    expect((await say(s, "löschen")).text).toMatch(/^✏️ Gelöscht: „Christian mag Jazz“/);
    expect(s.calls("judge")).toHaveLength(0);
    expect(s.t.lilo.memory.get(USER, "notes", id)).toBeUndefined();
  });

  it("another user's reference asks nothing", async () => {
    const hers = await s.t.lilo.memory.add({ text: "Anna mag Jazz", userId: "anna" });
    if (!hers.added) throw new Error("setup failed");
    expect(await s.t.lilo.why.verdict(USER, `N${hers.id}`, "wrong")).toBeUndefined();
  });

  it.each([
    ["Löschen", "yes"],
    ["ja, löschen", "yes"],
    ["Delete it", "yes"],
    ["Stimmt doch", "no"],
    ["It's right", "no"],
    ["nein", "no"],
    ["Nein, ich trinke Kaffee", undefined],
    ["Lösch das, es ist Kaffee nicht Tee", undefined],
  ])("typed %j reads as %s", (text, expected) => {
    expect(typedChoice(text)).toBe(expected);
  });
});
