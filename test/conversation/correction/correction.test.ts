import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { basisVector, vectorWithCosine } from "../../fakes/controlled-embedder.ts";
import { startScenario, say, USER, type Scenario } from "./scenario.ts";
import { readDb } from "../../helpers/read-db.ts";
import { ANY_USER } from "../../../core/index.ts";

const DIM = 64;
const ASK = "Was schaue ich eigentlich so im Fernsehen?";
const ANSWER = "Du schaust ja Die Geissens und Trödeltrupp!";
const msgAxis = basisVector(DIM, 0);
const answerAxis = basisVector(DIM, 1);

describe("corrections judged by a model", () => {
  let s: Scenario;

  beforeEach(async () => {
    s = await startScenario();
    s.chat = (m) => (m.includes(ASK) && !m.includes("nie") ? ANSWER : "Okay, verstanden.");
  });
  afterEach(async () => {
    await s.cleanup();
  });

  /** Stores a note whose vector the test chooses. */
  async function note(text: string, vector: number[]): Promise<number> {
    s.t.embedder.set(text, vector);
    const r = await s.t.lilo.memory.add({ text, userId: USER });
    if (!r.added) throw new Error(`not added: ${text}`);
    return r.id;
  }
  const liveNotes = () => s.t.lilo.memory.list(USER, { store: "notes" }).map((n) => n.text);
  const search = async (text: string) => (await s.t.lilo.memory.search(text, { userId: USER, k: 10, minScore: 0.3 })).map((h) => h.text);

  it("judges the notes near the message or Lilo's previous answer, changing nothing the judge keeps", async () => {
    const msg = "Das stimmt so nicht.";
    s.t.embedder.set(msg, msgAxis).set(ANSWER, answerAxis);
    const nearMessage = await note("Christian mag Fernsehen am Abend", vectorWithCosine(msgAxis, 0.5, 5));
    const nearAnswer = await note("Christian schaut Die Geissens", vectorWithCosine(answerAxis, 0.45, 6));
    await note("Christian trinkt gern Tee", basisVector(DIM, 20));
    await note("Christian hört Podcasts", vectorWithCosine(msgAxis, 0.29, 7)); // below the candidate score

    await say(s, ASK);
    s.judge = JSON.stringify({
      verdicts: [
        { id: `n${nearMessage}`, action: "keep", reason: "nicht widerlegt" },
        { id: `n${nearAnswer}`, action: "keep", reason: "nicht widerlegt" },
      ],
    });
    const r = await say(s, msg);

    expect(r.ok).toBe(true);
    const [judge] = s.calls("judge");
    expect(s.calls("judge")).toHaveLength(1);
    const sent = judge!.messages[0]!.content;
    expect(sent).toContain(`id=n${nearMessage} (note, 2026-12-02): Christian mag Fernsehen am Abend`);
    expect(sent).toContain(`id=n${nearAnswer} (note, 2026-12-02): Christian schaut Die Geissens`);
    expect(sent).not.toContain("Tee");
    expect(sent).not.toContain("Podcasts");
    expect(sent).toContain(msg);
    expect(sent).toContain(ANSWER);
    expect(judge!.temperature).toBe(0);
    // Kept: nothing changed, nothing logged, no hint.
    expect(liveNotes()).toHaveLength(4);
    expect(s.t.lilo.corrections.list({ userId: USER })).toEqual([]);
    expect(s.calls("chat").at(-1)!.system).not.toContain("Korrektur-Hinweis");
    // No note was corrected, so a rule was considered (and the model saw none).
    expect(s.calls("rule")).toHaveLength(1);
    expect(r.question).toBeUndefined();
  });

  it("deletes a contradicted note undoably: superseded, logged with its trigger, hinted on the sheet", async () => {
    const msg = "Ich wohne nicht mehr in Berlin, sondern in Köln.";
    s.t.embedder.set(msg, msgAxis);
    const berlin = await note("Christian wohnt in Berlin", vectorWithCosine(msgAxis, 0.48, 5));
    s.t.embedder.set("Berlin", vectorWithCosine(msgAxis, 0.48, 5));
    s.judge = JSON.stringify({ verdicts: [{ id: `n${berlin}`, action: "delete", reason: "Christian ist nach Köln gezogen" }] });

    const r = await say(s, msg);

    expect(r.ok).toBe(true);
    expect(liveNotes()).not.toContain("Christian wohnt in Berlin");
    expect(await search("Berlin")).toEqual([]);
    // Nothing is erased: the row is only superseded.
    expect((readDb(s.t.lilo).get("SELECT superseded_at FROM notes WHERE id = ?", berlin) as { superseded_at: string | null } | undefined)?.superseded_at).toBe(
      "2026-12-02T18:00:00.000Z",
    );
    const [entry] = s.t.lilo.corrections.list({ userId: USER });
    expect(entry).toMatchObject({
      action: "delete",
      store: "notes",
      rowId: berlin,
      oldText: "Christian wohnt in Berlin",
      newText: null,
      newRowId: null,
      triggerMessageId: r.userMessageId,
      triggerText: msg,
      reason: "Christian ist nach Köln gezogen",
      undoneAt: null,
    });
    const sheet = s.calls("chat").at(-1)!.system!;
    expect(sheet).toContain("Korrektur-Hinweis");
    expect(sheet).toContain("- gelöscht: „Christian wohnt in Berlin“");
    // The corrected note is not on the sheet any more.
    expect(sheet).not.toContain("Relevante Erinnerungen");
    // Per message either a note correction or a rule: no rule call, no question.
    expect(s.calls("rule")).toHaveLength(0);
    expect(r.question).toBeUndefined();

    const undone = await s.t.lilo.corrections.undo(entry!.id);
    expect(undone.undoneAt).not.toBeNull();
    expect(liveNotes()).toContain("Christian wohnt in Berlin");
    expect(await search("Berlin")).toEqual(["Christian wohnt in Berlin"]);
    const report = await s.t.lilo.maintenance.check();
    expect(report.rowsWithoutVector).toEqual([]);
    expect(report.vectorsWithoutRow).toEqual([]);
    await expect(s.t.lilo.corrections.undo(entry!.id)).rejects.toThrow(/undone already/);
    await expect(s.t.lilo.corrections.undo(9999)).rejects.toThrow(/No correction/);
  });

  it("Trödeltrupp: the judge's rewrite keeps only Die Geissens, undoably", async () => {
    const msg = "Trödeltrupp habe ich nie erwähnt!";
    s.t.embedder.set(msg, msgAxis).set(ANSWER, answerAxis);
    // The seed's bug: the extractor once saved Lilo's own addition as Christian's fact.
    const wrong = await note("Christian schaut Die Geissens und Trödeltrupp", vectorWithCosine(answerAxis, 0.5, 6));
    s.t.embedder.set("Christian schaut Die Geissens", vectorWithCosine(answerAxis, 0.6, 7));
    s.t.embedder.set("Geissens", vectorWithCosine(answerAxis, 0.6, 7));

    await say(s, ASK);
    s.judge = JSON.stringify({
      verdicts: [{ id: `n${wrong}`, action: "rewrite", text: "Christian schaut Die Geissens", reason: "Trödeltrupp hat Christian nie erwähnt" }],
    });
    const r = await say(s, msg);

    const judgeInput = s.calls("judge")[0]!.messages[0]!.content;
    expect(judgeInput).toContain("Christian schaut Die Geissens und Trödeltrupp");
    expect(judgeInput).toContain(`<answer from="Lilo">\n${ANSWER}`);
    expect(liveNotes()).toEqual(["Christian schaut Die Geissens"]);
    const fresh = s.t.lilo.memory.list(USER, { store: "notes" })[0]!;
    expect(fresh.extra).toEqual({
      kind: "fact",
      source_message_id: r.userMessageId,
      subject: null,
      provenance: "user",
      provenance_ref: String(r.userMessageId),
    });
    expect(await search("Geissens")).toEqual(["Christian schaut Die Geissens"]);

    const [entry] = s.t.lilo.corrections.list({ userId: USER });
    expect(entry).toMatchObject({
      action: "rewrite",
      rowId: wrong,
      oldText: "Christian schaut Die Geissens und Trödeltrupp",
      newText: "Christian schaut Die Geissens",
      newRowId: fresh.id,
      triggerText: msg,
    });
    expect(s.calls("chat").at(-1)!.system).toContain("- berichtigt: „Christian schaut Die Geissens und Trödeltrupp“ → „Christian schaut Die Geissens“");
    expect(s.calls("rule")).toHaveLength(0);

    await s.t.lilo.corrections.undo(entry!.id);
    expect(liveNotes()).toEqual(["Christian schaut Die Geissens und Trödeltrupp"]);
    expect(readDb(s.t.lilo).get("SELECT id FROM notes WHERE id = ?", fresh.id)).toBeUndefined();
    expect(await search("Geissens")).toEqual(["Christian schaut Die Geissens und Trödeltrupp"]);
    const report = await s.t.lilo.maintenance.check();
    expect(report.rowsWithoutVector).toEqual([]);
    expect(report.vectorsWithoutRow).toEqual([]);
  });

  it("never changes a profile fact, only hints at its delete command", async () => {
    const msg = "Das stimmt nicht, ich arbeite gar nicht bei Siemens.";
    s.t.embedder.set(msg, msgAxis);
    const siemens = s.t.lilo.profile.add(USER, "work", "Christian arbeitet bei Siemens").id;
    s.t.lilo.profile.add(USER, "person", "Christian hat eine Katze");
    s.t.embedder.set("Christian arbeitet bei Siemens", vectorWithCosine(msgAxis, 0.55, 5));
    s.judge = JSON.stringify({ verdicts: [{ id: `p${siemens}`, action: "delete", reason: "arbeitet nicht bei Siemens" }] });

    const r = await say(s, msg);

    const judgeInput = s.calls("judge")[0]!.messages[0]!.content;
    expect(judgeInput).toContain(`id=p${siemens} (profile entry, 2026-12-02): Christian arbeitet bei Siemens`);
    expect(judgeInput).not.toContain("Katze");
    expect(s.t.lilo.profile.list(USER).map((p) => p.text)).toContain("Christian arbeitet bei Siemens");
    expect(s.t.lilo.corrections.list()).toEqual([]);
    const sheet = s.calls("chat").at(-1)!.system!;
    expect(sheet).toContain("Profil-Hinweis");
    expect(sheet).toContain(`Eintrag #${siemens} (work): „Christian arbeitet bei Siemens“`);
    expect(sheet).toContain(`lilo profile delete ${siemens} --user chris`);
    expect(s.calls("rule")).toHaveLength(0);
    expect(r.question).toBeUndefined();
  });

  it("a malformed judge answer is ignored (counted), the turn unharmed", async () => {
    const msg = "Das ist falsch.";
    s.t.embedder.set(msg, msgAxis);
    const id = await note("Christian wohnt in Berlin", vectorWithCosine(msgAxis, 0.5, 5));
    for (const bad of ["Ich würde die Notiz löschen.", JSON.stringify({ verdicts: [{ id: `n${id}`, action: "rewrite", reason: "ohne Text" }] })]) {
      s.judge = bad;
      const r = await say(s, msg);
      expect(r.ok).toBe(true);
      expect(r.text).toBe("Okay, verstanden.");
    }
    expect(liveNotes()).toEqual(["Christian wohnt in Berlin"]);
    expect(s.t.lilo.corrections.list()).toEqual([]);
    expect(s.t.lilo.maintenance.modelProblems()).toEqual({ "judge:dropped": 2 });
    expect(s.calls("rule")).toHaveLength(0);
  });

  it("ignores verdicts about memories the judge was not shown", async () => {
    const msg = "Das ist falsch.";
    s.t.embedder.set(msg, msgAxis);
    const shown = await note("Christian wohnt in Berlin", vectorWithCosine(msgAxis, 0.5, 5));
    const hidden = await note("Christian trinkt gern Tee", basisVector(DIM, 20));
    s.judge = JSON.stringify({
      verdicts: [
        { id: `n${hidden}`, action: "delete", reason: "?" },
        { id: `n${shown}`, action: "keep", reason: "nicht widerlegt" },
      ],
    });
    await say(s, msg);
    expect(liveNotes().sort()).toEqual(["Christian trinkt gern Tee", "Christian wohnt in Berlin"]);
  });

  it("a retry after a failed chat call reuses the correction already made", async () => {
    const msg = "Ich wohne nicht mehr in Berlin, sondern in Köln.";
    s.t.embedder.set(msg, msgAxis);
    const berlin = await note("Christian wohnt in Berlin", vectorWithCosine(msgAxis, 0.48, 5));
    s.rule = JSON.stringify({ rule: "Frag nach, bevor du Wohnorte annimmst." });
    await say(s, ASK);
    s.judge = JSON.stringify({ verdicts: [{ id: `n${berlin}`, action: "delete", reason: "umgezogen" }] });
    // The judge answers, the chat call fails: the note is corrected, the user has not heard of it yet.
    s.fake.reply(s.judge).fail(400);
    expect((await say(s, msg)).ok).toBe(false);
    expect(s.t.lilo.corrections.list({ userId: USER })).toHaveLength(1);

    const r = await s.t.lilo.retry(USER);
    await s.t.lilo.idle();
    expect(r?.ok).toBe(true);
    expect(s.calls("judge")).toHaveLength(1);
    // Per message either a note correction or a rule: the retry must not find "nothing to correct" and ask for a rule.
    expect(s.calls("rule")).toHaveLength(0);
    expect(r?.question).toBeUndefined();
    expect(s.calls("chat").at(-1)!.system).toContain("- gelöscht: „Christian wohnt in Berlin“");
    expect(s.t.lilo.corrections.list({ userId: USER })).toHaveLength(1);
  });

  describe("undo never loses data", () => {
    /** Rewrites `from` into `to` through a chat turn; returns the log entry. */
    async function rewrite(from: number, to: string, msg: string) {
      s.t.embedder.set(msg, msgAxis);
      s.judge = JSON.stringify({ verdicts: [{ id: `n${from}`, action: "rewrite", text: to, reason: "nie erwähnt" }] });
      await say(s, msg);
      return s.t.lilo.corrections.list({ userId: USER })[0]!;
    }

    it("restores first: an undo that fails to embed leaves the rewrite in place for a retry", async () => {
      const wrong = await note("Christian schaut Die Geissens und Trödeltrupp", vectorWithCosine(msgAxis, 0.5, 6));
      s.t.embedder.set("Christian schaut Die Geissens", vectorWithCosine(msgAxis, 0.6, 7));
      const entry = await rewrite(wrong, "Christian schaut Die Geissens", "Trödeltrupp habe ich nie erwähnt!");
      const embed = s.t.embedder.embed.bind(s.t.embedder);
      s.t.embedder.embed = async () => {
        throw new Error("embedder down");
      };
      await expect(s.t.lilo.corrections.undo(entry.id)).rejects.toThrow();
      s.t.embedder.embed = embed;
      expect(liveNotes()).toEqual(["Christian schaut Die Geissens"]);
      expect(s.t.lilo.corrections.get(entry.id)?.undoneAt).toBeNull();

      await s.t.lilo.corrections.undo(entry.id);
      expect(liveNotes()).toEqual(["Christian schaut Die Geissens und Trödeltrupp"]);
      const report = await s.t.lilo.maintenance.check();
      expect(report.rowsWithoutVector).toEqual([]);
      expect(report.vectorsWithoutRow).toEqual([]);
    });

    it("refuses to throw away a rewritten note that was edited since", async () => {
      const wrong = await note("Christian schaut Die Geissens und Trödeltrupp", vectorWithCosine(msgAxis, 0.5, 6));
      const entry = await rewrite(wrong, "Christian schaut Die Geissens", "Trödeltrupp habe ich nie erwähnt!");
      await s.t.lilo.memory.edit(ANY_USER, "notes", entry.newRowId!, "Christian schaut Die Geissens am Sonntag");
      await expect(s.t.lilo.corrections.undo(entry.id)).rejects.toThrow(/edited since/);
      expect(liveNotes()).toEqual(["Christian schaut Die Geissens am Sonntag"]);
      expect(s.t.lilo.corrections.get(entry.id)?.undoneAt).toBeNull();
    });

    it("refuses to undo a rewrite whose note was corrected again until the later correction is undone", async () => {
      const wrong = await note("Christian schaut Die Geissens und Trödeltrupp", vectorWithCosine(msgAxis, 0.5, 6));
      s.t.embedder.set("Christian schaut Die Geissens", vectorWithCosine(msgAxis, 0.6, 7));
      const first = await rewrite(wrong, "Christian schaut Die Geissens", "Trödeltrupp habe ich nie erwähnt!");
      const second = await rewrite(first.newRowId!, "Christian schaut Die Geissens selten", "Das stimmt so nicht, nur selten.");
      expect(liveNotes()).toEqual(["Christian schaut Die Geissens selten"]);

      await expect(s.t.lilo.corrections.undo(first.id)).rejects.toThrow(new RegExp(`corrected again \\(correction #${second.id}\\)`));
      expect(liveNotes()).toEqual(["Christian schaut Die Geissens selten"]);

      await s.t.lilo.corrections.undo(second.id);
      await s.t.lilo.corrections.undo(first.id);
      expect(liveNotes()).toEqual(["Christian schaut Die Geissens und Trödeltrupp"]);
    });
  });

  it("does nothing for a message that does not sound like a correction", async () => {
    await note("Christian wohnt in Berlin", msgAxis);
    s.t.embedder.set("Es ist nicht mehr lange bis Weihnachten", msgAxis);
    await say(s, "Es ist nicht mehr lange bis Weihnachten");
    expect(s.calls("judge")).toHaveLength(0);
    expect(s.calls("rule")).toHaveLength(0);
  });
});
