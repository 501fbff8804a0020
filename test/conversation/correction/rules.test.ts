import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { basisVector, vectorWithCosine } from "../../fakes/controlled-embedder.ts";
import { startScenario, say, USER, type Scenario } from "./scenario.ts";
import { readDb } from "../../helpers/read-db.ts";

const RULE = "Wenn Christian 'Kinews' sagt, immer in der lokalen Datenbank suchen, nie im Internet.";
const WEB_ANSWER = "Ich habe im Internet nach KI-News gesucht: OpenAI hat …";
const OBJECTION = "Nein, das ist falsch: Kinews ist meine lokale Datenbank!";

describe("learned rules confirmed with a typed yes", () => {
  let s: Scenario;

  beforeEach(async () => {
    s = await startScenario({ LILO_QUESTION_TTL_MINUTES: "10" });
    s.chat = (m) => (m.includes("Kinews?") ? WEB_ANSWER : `Antwort auf: ${m.split("\n").at(-1)}`);
    s.rule = JSON.stringify({ rule: RULE });
  });
  afterEach(async () => {
    await s.cleanup();
  });

  /** Lilo errs, Christian objects, Lilo answers and asks whether to remember the rule. */
  async function objection() {
    await say(s, "Was gibt es Neues bei Kinews?");
    const r = await say(s, OBJECTION);
    expect(r.ok).toBe(true);
    expect(r.question?.text).toBe(`Soll ich mir das merken? 📌 „${RULE}“`);
    expect(r.question?.choices).toEqual([
      { value: "yes", label: "Ja" },
      { value: "no", label: "Nein" },
    ]);
    return r;
  }
  const rules = () => s.t.lilo.rules.list(USER).map((r) => r.text);
  const status = (id: number) => s.t.lilo.questions.get(id)?.status;

  it("asks about a rule derived from a contradiction with no notes to correct", async () => {
    await objection();
    expect(s.calls("judge")).toHaveLength(0); // no candidates, nothing to judge
    const [call] = s.calls("rule");
    expect(call!.messages[0]!.content).toContain(WEB_ANSWER);
    expect(call!.messages[0]!.content).toContain(OBJECTION);
    expect(s.calls("chat").at(-1)!.system).toContain(`Regel-Hinweis`);
    expect(rules()).toEqual([]); // never without a yes
  });

  it("a typed yes stores the rule for every later sheet, answered without the model", async () => {
    const asked = await objection();
    const before = s.fake.requests.length;
    const r = await say(s, "Ja, bitte");
    expect(r).toMatchObject({ ok: true, text: `📌 Gemerkt: „${RULE}“`, notesUsed: [] });
    expect(s.fake.requests.length).toBe(before); // no model call for the answer
    expect(s.t.lilo.rules.list(USER)).toMatchObject([{ text: RULE, enabled: true }]);
    const src = readDb(s.t.lilo).get("SELECT source_message_id AS m FROM rules") as { m: number };
    expect(src.m).toBe(asked.userMessageId);
    expect(status(asked.question!.id)).toBe("yes");
    const log = readDb(s.t.lilo).all("SELECT role, text FROM messages ORDER BY id DESC LIMIT 2");
    expect(log).toEqual([
      { role: "assistant", text: `📌 Gemerkt: „${RULE}“` },
      { role: "user", text: "Ja, bitte" },
    ]);

    await say(s, "Und was gibt es sonst?");
    const sheet = s.calls("chat").at(-1)!.system!;
    expect(sheet).toContain(`Gelernte Regeln – IMMER befolgen:\n- ${RULE}`);
  });

  it("a typed no drops the rule", async () => {
    const asked = await objection();
    const r = await say(s, "Nein");
    expect(r.text).toBe("Okay, ich merke mir das nicht.");
    expect(rules()).toEqual([]);
    expect(status(asked.question!.id)).toBe("no");
  });

  it('"Ok, nein" is not a yes (both lists hit → no)', async () => {
    const asked = await objection();
    const r = await say(s, "Ok, nein");
    expect(r.text).toBe("Okay, ich merke mir das nicht.");
    expect(rules()).toEqual([]);
    expect(status(asked.question!.id)).toBe("no");
  });

  it('"Bitte erkläre mir erst …" is not a yes: it is answered as a message of its own, discarding the rule', async () => {
    const asked = await objection();
    const r = await say(s, "Bitte erkläre mir erst, was du damit meinst");
    expect(r.text).toBe("Antwort auf: Bitte erkläre mir erst, was du damit meinst");
    expect(s.calls("chat").at(-1)!.messages.at(-1)!.content).toBe("Bitte erkläre mir erst, was du damit meinst");
    expect(status(asked.question!.id)).toBe("discarded");
    // A yes after that is just a message: the rule is gone.
    const later = await say(s, "Ja");
    expect(later.text).toBe("Antwort auf: Ja");
    expect(rules()).toEqual([]);
  });

  it("an unrelated reply is answered as a message of its own, discarding the proposed rule (no in Kino is not a no)", async () => {
    const asked = await objection();
    const r = await say(s, "Ich war gestern noch im Kino");
    expect(r.text).toBe("Antwort auf: Ich war gestern noch im Kino");
    expect(status(asked.question!.id)).toBe("discarded");
    // The dropped question is mentioned, not silently lost.
    expect(s.calls("chat").at(-1)!.system).toContain("hat die Nachricht nicht beantwortet");
    expect(rules()).toEqual([]);
  });

  it("a pending rule expires after the configured time", async () => {
    const asked = await objection();
    s.clock.advance(11 * 60_000);
    const r = await say(s, "Ja");
    expect(r.text).toBe("Antwort auf: Ja");
    expect(status(asked.question!.id)).toBe("expired");
    expect(rules()).toEqual([]);
    expect(await s.t.lilo.questions.answer(USER, asked.question!.id, "yes")).toMatchObject({ ok: false, reason: "expired" });
  });

  it("a button's yes within the time stores the rule", async () => {
    const asked = await objection();
    s.clock.advance(9 * 60_000);
    const out = await s.t.lilo.questions.answer(USER, asked.question!.id, "yes");
    expect(out).toMatchObject({ ok: true, answer: "yes" });
    expect(rules()).toEqual([RULE]);
    // The question is answered: a typed "Ja" now is an ordinary message.
    expect((await say(s, "Ja")).text).toBe("Antwort auf: Ja");
    expect(rules()).toEqual([RULE]);
  });

  it("no question when the model sees no rule, or when the rule is known already", async () => {
    s.rule = JSON.stringify({ rule: null });
    const first = await say(s, OBJECTION);
    expect(first.question).toBeUndefined(); // no previous answer: nothing to derive from
    expect(s.calls("rule")).toHaveLength(0);
    await say(s, "Was gibt es Neues bei Kinews?");
    expect((await say(s, OBJECTION)).question).toBeUndefined();
    expect(s.calls("rule")).toHaveLength(1);
    s.t.lilo.rules.add(USER, RULE);
    s.rule = JSON.stringify({ rule: RULE });
    expect((await say(s, OBJECTION)).question).toBeUndefined();
  });

  it("a malformed rule answer is counted as a model problem, asking nothing", async () => {
    s.rule = "Regel: immer lokal suchen";
    await say(s, "Was gibt es Neues bei Kinews?");
    const r = await say(s, OBJECTION);
    expect(r.ok).toBe(true);
    expect(r.question).toBeUndefined();
    expect(s.t.lilo.maintenance.modelProblems()).toEqual({ "rule:dropped": 1 });
  });

  it("per message either a correction or a rule: a kept note still allows a rule, a corrected one does not", async () => {
    const msgAxis = basisVector(64, 0);
    s.t.embedder.set(OBJECTION, msgAxis);
    s.t.embedder.set("Christian liest Kinews", vectorWithCosine(msgAxis, 0.5, 5));
    const r0 = await s.t.lilo.memory.add({ text: "Christian liest Kinews", userId: USER });
    const noteId = r0.added ? r0.id : -1;
    s.judge = JSON.stringify({ verdicts: [{ id: `n${noteId}`, action: "keep", reason: "stimmt" }] });
    const kept = await objection();
    expect(kept.question).toBeDefined();
    // "Nein, das ist falsch …" would answer the open question with no: settle it by button first.
    await s.t.lilo.questions.answer(USER, kept.question!.id, "no");

    s.judge = JSON.stringify({ verdicts: [{ id: `n${noteId}`, action: "delete", reason: "falsch" }] });
    const corrected = await say(s, OBJECTION);
    expect(corrected.question).toBeUndefined();
    expect(s.calls("rule")).toHaveLength(1);
    expect(s.t.lilo.corrections.list({ userId: USER })).toHaveLength(1);
  });
});

describe("typed answers never swallow a message, and never answer a question nobody saw", () => {
  let s: Scenario;
  const OKAY_OBJECTION = "Okay, das stimmt so nicht: Kinews ist meine lokale Datenbank!";

  beforeEach(async () => {
    s = await startScenario({ LILO_QUESTION_TTL_MINUTES: "10" });
    s.chat = (m) => (m.includes("Kinews?") ? WEB_ANSWER : `Antwort auf: ${m.split("\n").at(-1)}`);
    s.rule = JSON.stringify({ rule: RULE });
  });
  afterEach(async () => {
    await s.cleanup();
  });
  const rules = () => s.t.lilo.rules.list(USER).map((r) => r.text);
  const status = (id: number) => s.t.lilo.questions.get(id)?.status;

  async function asked() {
    await say(s, "Was gibt es Neues bei Kinews?");
    const r = await say(s, OBJECTION);
    expect(r.question).toBeDefined();
    return r.question!;
  }

  it("a longer message opening with a no word is answered as a decline of the rule", async () => {
    const q = await asked();
    const r = await say(s, "Lass uns lieber über Fußball reden");
    expect(r.text).toBe("Antwort auf: Lass uns lieber über Fußball reden");
    expect(status(q.id)).toBe("no");
    expect(rules()).toEqual([]);
    expect(s.calls("chat").at(-1)!.system).toContain(
      "Antwort-Hinweis: Die Nachricht beantwortet auch deine offene Frage (Ergebnis: Okay, ich merke mir das nicht.).",
    );

    // The objection again, answered with no: the same rule is not proposed right after the user declined it.
    const q2 = await asked();
    const rulesAsked = s.calls("rule").length;
    const again = await say(s, OBJECTION);
    expect(status(q2.id)).toBe("no");
    expect(again.text).toBe(`Antwort auf: ${OBJECTION}`);
    expect(again.question).toBeUndefined();
    expect(s.calls("rule")).toHaveLength(rulesAsked);
  });

  it("a longer message opening with yes is answered as an acceptance of the rule", async () => {
    const q = await asked();
    const r = await say(s, "Ja, und was gibt es sonst Neues?");
    expect(r.text).toBe("Antwort auf: Ja, und was gibt es sonst Neues?");
    expect(status(q.id)).toBe("yes");
    expect(rules()).toEqual([RULE]);
    expect(s.calls("chat").at(-1)!.system).toContain(`(Ergebnis: 📌 Gemerkt: „${RULE}“)`);
  });

  it("a retry after a failed chat call answers the message again instead of reading it as the answer to its own question", async () => {
    await say(s, "Was gibt es Neues bei Kinews?");
    // The rule call answers; the chat call fails: the question was stored but never shown.
    s.fake.reply(JSON.stringify({ rule: RULE })).fail(400);
    const failed = await say(s, OKAY_OBJECTION);
    expect(failed.ok).toBe(false);
    expect(failed.question).toBeUndefined();

    const r = await s.t.lilo.retry(USER);
    await s.t.lilo.idle();
    expect(r).toMatchObject({ ok: true, text: `Antwort auf: ${OKAY_OBJECTION}` });
    expect(r!.question?.text).toBe(`Soll ich mir das merken? 📌 „${RULE}“`);
    expect(rules()).toEqual([]);
  });

  it("a yes after a failed turn does not confirm the question that was never shown", async () => {
    await say(s, "Was gibt es Neues bei Kinews?");
    s.fake.reply(JSON.stringify({ rule: RULE })).fail(400);
    expect((await say(s, OBJECTION)).ok).toBe(false);
    const r = await say(s, "Ok");
    expect(r.text).toBe("Antwort auf: Ok");
    expect(rules()).toEqual([]);
  });
});
