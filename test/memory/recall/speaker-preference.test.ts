/**
 * A question naming one speaker asks what that speaker said: the
 * other side's turns that only address them ("Anna, the garden …") rank
 * below the named speaker's own. Real SQLite through the public
 * `recall.rank`; the names come from LILO_USER_NAMES and LILO_NAME. The
 * test embedder keeps every text apart in meaning, so the words decide and
 * only this step can change the order.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fixedClock } from "../../../core/index.ts";
import { namedSide, personSide } from "../../../core/memory/recall/speaker-preference.ts";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";

const clock = fixedClock("2026-12-02T18:00:00Z");
let t: TestLilo | undefined;

afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

type Line = [role: "user" | "assistant", text: string];

/** Each line is a conversation of its own on its own day; returns the ids in order. */
function seed(lilo: TestLilo["lilo"], lines: Line[]): number[] {
  return lilo.recall.importChat(
    lines.map(([role, text], d) => ({ userId: "chris", role, text, createdAt: `2026-10-${String(d + 1).padStart(2, "0")}T09:00:00Z` })),
  );
}

/** Unrelated turns, so the search words are rare enough to count. */
const FILLER: Line[] = [
  ["user", "The train was late again this morning"],
  ["assistant", "That sounds tiring, did you get a seat at least"],
  ["user", "My sister called about the holidays"],
  ["assistant", "Der Zug hatte wieder Verspätung"],
  ["user", "Meine Schwester hat wegen der Feiertage angerufen"],
];

const names = { LILO_USER_NAMES: "chris=Anna", LILO_NAME: "Lilo" };

describe("a question naming one speaker", () => {
  const english: Line[] = [["assistant", "Anna, the garden looks great with those new plants"], ["user", "I planted tulips in the garden"], ...FILLER];
  const question = "What did Anna plant in the garden?";

  it("ranks that speaker's own turn above the other side's turn addressing them (English)", async () => {
    t = makeTestLilo(names, { clock });
    const [addressing, own] = seed(t.lilo, english);
    const ranked = (await t.lilo.recall.rank(question, { userId: "chris", limit: 3 })).map((m) => m.id);
    expect(ranked.slice(0, 2)).toEqual([own, addressing]);
  });

  it("leaves the word order alone when the step is off (the premise of the test above)", async () => {
    t = makeTestLilo(names, { clock, tuning: { chatFusion: { speaker: 0 } } });
    const [addressing, own] = seed(t.lilo, english);
    const ranked = (await t.lilo.recall.rank(question, { userId: "chris", limit: 3 })).map((m) => m.id);
    expect(ranked.slice(0, 2)).toEqual([addressing, own]);
  });

  const german: Line[] = [["user", "Lilo, der Garten braucht neue Pflanzen"], ["assistant", "Im Garten würde ich Lavendel pflanzen"], ...FILLER];

  const frage = "Was hat Lilo für den Garten an Pflanzen vorgeschlagen?";

  it("works for the persona's name in German", async () => {
    t = makeTestLilo({ ...names, LILO_LANGUAGE: "de" }, { clock });
    const [addressing, own] = seed(t.lilo, german);
    const ranked = (await t.lilo.recall.rank(frage, { userId: "chris", limit: 3 })).map((m) => m.id);
    expect(ranked.slice(0, 2)).toEqual([own, addressing]);
  });

  it("leaves the German word order alone when the step is off", async () => {
    t = makeTestLilo({ ...names, LILO_LANGUAGE: "de" }, { clock, tuning: { chatFusion: { speaker: 0 } } });
    const [addressing, own] = seed(t.lilo, german);
    const ranked = (await t.lilo.recall.rank(frage, { userId: "chris", limit: 3 })).map((m) => m.id);
    expect(ranked.slice(0, 2)).toEqual([addressing, own]);
  });

  it("prefers no side when the question names both", async () => {
    t = makeTestLilo(names, { clock });
    const [addressing, own] = seed(t.lilo, english);
    const ranked = (await t.lilo.recall.rank("What did Anna and Lilo plant in the garden?", { userId: "chris", limit: 3 })).map((m) => m.id);
    expect(ranked.slice(0, 2)).toEqual([addressing, own]);
  });
});

describe("a question asking in the first or second person", () => {
  const lines: Line[] = [["assistant", "Those garden plants look great"], ["user", "I planted tulips in the garden"], ...FILLER];
  const question = "What did I tell you about the garden plants?";
  const top = async (lilo: TestLilo["lilo"], q: string) => (await lilo.recall.rank(q, { userId: "chris", limit: 3 })).map((m) => m.id).slice(0, 2);

  it("'What did I tell you' ranks the user's own turn first, without a name", async () => {
    t = makeTestLilo(names, { clock });
    const [other, own] = seed(t.lilo, lines);
    expect(await top(t.lilo, question)).toEqual([own, other]);
  });

  it("'What did I tell you' leaves the word order alone when the step is off (the premise of the test above)", async () => {
    t = makeTestLilo(names, { clock, tuning: { chatFusion: { speaker: 0 } } });
    const [other, own] = seed(t.lilo, lines);
    expect(await top(t.lilo, question)).toEqual([other, own]);
  });

  const german: Line[] = [["user", "Der Garten braucht neue Pflanzen"], ["assistant", "Im Garten würde ich Lavendel pflanzen"], ...FILLER];
  const frage = "Was hast du mir für den Garten an neuen Pflanzen empfohlen?";

  it("'Was hast du mir empfohlen' ranks Lilo's turn first", async () => {
    t = makeTestLilo({ ...names, LILO_LANGUAGE: "de" }, { clock });
    const [addressing, own] = seed(t.lilo, german);
    expect(await top(t.lilo, frage)).toEqual([own, addressing]);
  });

  it("'Was hast du mir empfohlen' leaves the word order alone when the step is off (the premise of the test above)", async () => {
    t = makeTestLilo({ ...names, LILO_LANGUAGE: "de" }, { clock, tuning: { chatFusion: { speaker: 0 } } });
    const [addressing, own] = seed(t.lilo, german);
    expect(await top(t.lilo, frage)).toEqual([addressing, own]);
  });
});

describe("personSide", () => {
  it("reads the side a question about who said what means by 'I' (the user) or 'you' (Lilo)", () => {
    expect(personSide("What did I tell you about Rome?")).toBe("user");
    expect(personSide("Have I ever mentioned my sister?")).toBe("user");
    expect(personSide("Wann habe ich dir von Rom erzählt?")).toBe("user");
    expect(personSide("Ich hab dir doch was über Mia gesagt, oder?")).toBe("user");
    expect(personSide("What did you recommend for my back?")).toBe("assistant");
    expect(personSide("Was hast du mir gegen Rückenschmerzen geraten?")).toBe("assistant");
    expect(personSide("Du hattest doch ein Buch vorgeschlagen?")).toBe("assistant");
  });

  it("says nothing for both sides, for no telling verb, or for words inside others", () => {
    expect(personSide("What did you say after I told you about Rome?")).toBeUndefined();
    expect(personSide("Was weißt du über meine Schwester?")).toBeUndefined();
    expect(personSide("Do I like tea?")).toBeUndefined();
    expect(personSide("Hi said the sign")).toBeUndefined();
    expect(personSide("Wie geht es dir?")).toBeUndefined();
  });
});

describe("namedSide", () => {
  const speakers = { user: "Anna Maria", assistant: "Lilo" };

  it("finds the one side a question names, whole words, case and accents ignored", () => {
    expect(namedSide("what did anna maria say?", speakers)).toBe("user");
    expect(namedSide("Was hat LILO gesagt?", speakers)).toBe("assistant");
    expect(namedSide("Was hat Renée gesagt?", { user: "Renee", assistant: "Lilo" })).toBe("user");
  });

  it("names no side for both names, neither, part of a name, a word inside another, or equal names", () => {
    expect(namedSide("What did Anna Maria and Lilo plan?", speakers)).toBeUndefined();
    expect(namedSide("What did Tom say?", speakers)).toBeUndefined();
    expect(namedSide("What did Anna say?", speakers)).toBeUndefined();
    expect(namedSide("Lilos Garten", speakers)).toBeUndefined();
    expect(namedSide("What did Lilo say?", { user: "Lilo", assistant: "lilo" })).toBeUndefined();
    expect(namedSide("What did Lilo say?", { assistant: "Lilo" })).toBe("assistant");
  });
});
