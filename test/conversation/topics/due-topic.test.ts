import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { makeTestLilo, isExtraction, type TestLilo, fakeAnthropicEnv, NO_EXTRACTION } from "../../helpers/test-lilo.ts";
import { fixedClock } from "../../../core/index.ts";
import { checkAddressed } from "../../../core/conversation/topics/addressed.ts";
import { atTime } from "../../helpers/clock-at.ts";

const DAY = 86_400_000;
const NOW = "2026-12-02T08:00:00Z"; // Wednesday 09:00 in Berlin
const WORDS = { followup: 1, concern: 2 };
const CONCERN = "🧠 Mich beschäftigt, ob dir das Lilo-Projekt gerade Energie gibt oder nimmt.";
const CONCERN_HINT = "Beim Nachdenken in einem stillen Moment";
const FOLLOWUP_HINT = "bei dem du bei Christian nachhaken wolltest";

describe("due topics on the cheat sheet and the addressed-check (docs/spec.md §9)", () => {
  let fake: FakeAnthropic;
  let t: TestLilo;
  let clock: ReturnType<typeof fixedClock>;
  let answer = "Schön, dass du da bist.";
  const iso = (offsetMs: number) => new Date(clock.now().getTime() + offsetMs).toISOString();
  const add = (text: string, kind: "followup" | "concern", dueIn: number) => {
    const dueAt = iso(dueIn);
    return atTime(clock, iso(-30 * DAY), () => t.lilo.topics.add("chris", text, kind, dueAt));
  };
  const chatSystems = () => fake.requests.filter((r) => !isExtraction(r.system) && r.system?.startsWith("Du bist Lilo")).map((r) => r.system!);
  const status = (id: number) => (t.lilo.topics.list("chris", "done").some((x) => x.id === id) ? "done" : "open");
  const say = async (text: string) => {
    const r = await t.lilo.handleMessage({ userId: "chris", text });
    await t.lilo.idle();
    clock.advance(60_000);
    return r;
  };

  beforeEach(async () => {
    clock = fixedClock(NOW);
    answer = "Schön, dass du da bist.";
    fake = await startFakeAnthropic();
    fake.replyAlways((body) => (isExtraction(body.system) ? NO_EXTRACTION : answer));
    t = makeTestLilo(fakeAnthropicEnv(fake), { clock });
  });
  afterEach(async () => {
    await t.cleanup();
    await fake.close();
  });

  it("puts at most one due topic on the sheet, chosen by kind, then by due date", async () => {
    const older = add("Wie war der Zahnarzttermin?", "followup", -3 * DAY);
    const newer = add("Steht der neue Gartenzaun?", "followup", -1 * DAY);
    const concern = add(CONCERN, "concern", -60_000);
    add("Wie laufen die Proben fürs Konzert?", "followup", 5 * DAY);

    await say("Hallo Lilo");
    let sys = chatSystems().at(-1)!;
    expect(sys).toContain(CONCERN);
    expect(sys).toContain(CONCERN_HINT);
    expect(sys).toContain("Mir ist neulich beim Nachdenken etwas gekommen");
    expect(sys).toContain("mitten in einem Problem, heb es dir auf");
    for (const other of ["Zahnarzttermin", "Gartenzaun", "Konzert"]) expect(sys).not.toContain(other);

    t.lilo.topics.markDone(concern);
    await say("Was gibt's Neues?");
    sys = chatSystems().at(-1)!;
    expect(sys).toContain("Wie war der Zahnarzttermin?");
    expect(sys).toContain(FOLLOWUP_HINT);
    expect(sys).not.toContain(CONCERN_HINT);
    expect(sys).not.toContain("Gartenzaun");
    expect(sys).not.toContain("Konzert");
    expect([status(older), status(newer)]).toEqual(["open", "open"]);
  });

  it("shows a follow-up only once it is due", async () => {
    add("Wie laufen die Proben fürs Konzert?", "followup", 2 * DAY);
    await say("Hallo");
    expect(chatSystems().at(-1)).not.toContain("Konzert");
    clock.advance(2 * DAY);
    await say("Hallo nochmal");
    expect(chatSystems().at(-1)).toContain("Wie laufen die Proben fürs Konzert?");
  });

  it("keeps a 🧠 concern on the sheet until Lilo's answer holds two of its meaningful words", async () => {
    const id = add(CONCERN, "concern", 0);
    answer = "Ich habe heute viel Energie!";
    await say("Hallo");
    expect(status(id)).toBe("open");
    await say("Und sonst?");
    expect(chatSystems().at(-1)).toContain(CONCERN);

    answer = "Mir ist neulich etwas gekommen: Gibt dir das Projekt gerade Energie?";
    await say("Erzähl");
    expect(status(id)).toBe("done");
    expect(t.lilo.topics.list("chris", "done")[0]!.doneAt).toBe(new Date(Date.parse(NOW) + 2 * 60_000).toISOString());
    await say("Okay");
    expect(chatSystems().at(-1)).not.toContain(CONCERN);
  });

  it("marks a normal follow-up done with one meaningful word, compared as whole words", async () => {
    const id = add("Kino mit Anna?", "followup", -DAY);
    answer = "Wie war euer Kinoabend?"; // "Kino" is not in "Kinoabend"
    await say("Hallo");
    expect(status(id)).toBe("open");
    answer = "Wie war das Kino?";
    await say("Hallo");
    expect(status(id)).toBe("done");
  });
});

describe("checkAddressed", () => {
  const concern = { kind: "concern" as const, text: "🧠 Ich frage mich wirklich, ob dir Klettern oder Schwimmen eigentlich mehr Freude macht." };

  it("needs as many meaningful words as the topic's kind asks (concern 2, follow-up 1)", () => {
    expect(checkAddressed(concern, "Gehst du noch klettern?", WORDS)).toEqual({ addressed: false, found: ["klettern"], needed: 2 });
    expect(checkAddressed(concern, "Klettern oder lieber Schwimmen?", WORDS)).toMatchObject({ addressed: true, found: ["klettern", "schwimmen"] });
    expect(checkAddressed({ kind: "followup", text: "Wie war der Zahnarzttermin?" }, "Und, der Zahnarzttermin?", WORDS)).toMatchObject({
      addressed: true,
      needed: 1,
    });
  });

  it("does not count short or filler words", () => {
    // "frage", "mich", "wirklich", "eigentlich", "mehr" are filler; "ob", "dir" are short.
    const echo = "Ich frage mich wirklich, ob dir das eigentlich mehr bringt. Klettern?";
    expect(checkAddressed(concern, echo, WORDS)).toEqual({ addressed: false, found: ["klettern"], needed: 2 });
  });

  it("compares whole words, not substrings", () => {
    expect(checkAddressed(concern, "Kletterhalle oder Schwimmbad?", WORDS).found).toEqual([]);
    expect(checkAddressed({ kind: "followup", text: "Kino?" }, "Der Kinoabend war schön", WORDS).addressed).toBe(false);
    expect(checkAddressed({ kind: "followup", text: "Kino?" }, "Wie war das KINO gestern?", WORDS).addressed).toBe(true);
  });

  it("never needs more words than the topic has", () => {
    expect(checkAddressed({ kind: "concern", text: "🧠 Eigentlich immer Klettern?" }, "Klettern!", WORDS)).toMatchObject({ addressed: true, needed: 1 });
    expect(checkAddressed({ kind: "followup", text: "Bad?" }, "Hallo", WORDS)).toMatchObject({ addressed: true, needed: 0 });
  });
});
