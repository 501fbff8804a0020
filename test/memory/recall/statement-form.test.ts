/**
 * The question as the statement that answers it: the meaning
 * side also searches with "I partake in activities" for "What activities
 * does Anna partake in?", since stored turns are first-person statements.
 * The rules in German and English alike, and end to end through the public
 * `recall.rank` on real SQLite: the test embedder puts the statement form
 * (and only it) next to the evidence, which shares no word with the question.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fixedClock } from "../../../core/index.ts";
import { statementForm } from "../../../core/memory/recall/statement-form.ts";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";
import { basisVector, ControlledEmbedder } from "../../fakes/controlled-embedder.ts";

const speakers = { user: "Anna", assistant: "Lilo" };

describe("the statement form of a question", () => {
  it("turns an English question into the named speaker's own statement", () => {
    expect(statementForm("What activities does Anna partake in?", speakers)).toBe("I partake in activities");
    expect(statementForm("Where did Anna travel with her husband?", speakers)).toBe("I travel with my husband");
    expect(statementForm("Which countries has Anna visited?", speakers)).toBe("I have visited countries");
    expect(statementForm("What kind of deal did Anna get?", speakers)).toBe("I get deal");
    expect(statementForm("Was Anna at the party?", speakers)).toBe("I was at the party");
  });

  it("does the same in German", () => {
    expect(statementForm("Welche Aktivitäten macht Anna gern?", speakers)).toBe("Ich mache Aktivitäten gern");
    expect(statementForm("Wohin ist Anna mit ihrem Mann gereist?", speakers)).toBe("Ich bin mit meinem Mann gereist");
    expect(statementForm("Welche Länder hat Anna besucht?", speakers)).toBe("Ich habe Länder besucht");
    expect(statementForm("Wie viele Kinder hat Anna?", speakers)).toBe("Ich habe Kinder");
    expect(statementForm("Hat Anna einen Hund?", speakers)).toBe("Ich habe einen Hund");
  });

  it("speaks as the persona when asked with you", () => {
    expect(statementForm("What did you recommend to me?", speakers)).toBe("I recommend to you");
    expect(statementForm("Was hast du mir empfohlen?", speakers)).toBe("Ich habe dir empfohlen");
  });

  it("keeps the user's own I", () => {
    expect(statementForm("What did I tell you about my sister?", speakers)).toBe("I tell you about my sister");
  });

  it("makes the speaker the object or owner where they are not the subject", () => {
    expect(statementForm("Who helped Anna with the move?", speakers)).toBe("helped me with the move");
    expect(statementForm("Wer hat Anna beim Umzug geholfen?", speakers)).toBe("hat mir beim Umzug geholfen");
    expect(statementForm("What country is Anna's grandma from?", speakers)).toBe("my grandma is from country");
    expect(statementForm("Was hat Annas Bruder gemalt?", speakers)).toBe("mein Bruder hat gemalt");
  });

  it("leaves text alone that is no question with a verb (a statement, a lone word)", () => {
    expect(statementForm("Konzert in Rom", speakers)).toBeUndefined();
    expect(statementForm("I went to Rome", speakers)).toBeUndefined();
    expect(statementForm("Why?", speakers)).toBeUndefined();
  });

  it("drops a leading greeting or clause", () => {
    expect(statementForm("Hey, what did you recommend to me?", speakers)).toBe("I recommend to you");
    expect(statementForm("According to Lilo, what did Anna paint?", speakers)).toBe("I paint");
    expect(statementForm("Hallo, was hat Anna gestern gemacht?", speakers)).toBe("Ich habe gestern gemacht");
    expect(statementForm("Laut Lilo: Was hat Anna gemalt?", speakers)).toBe("Ich habe gemalt");
  });

  it("asks a guess as the plain fact", () => {
    expect(statementForm("Would Anna likely enjoy jazz?", speakers)).toBe("I enjoy jazz");
    expect(statementForm("What fields would Anna be likely to pursue?", speakers)).toBe("I pursue fields");
    expect(statementForm("Would Anna be open to moving?", speakers)).toBe("I am open to moving");
    expect(statementForm("Is it likely that Anna has a dog?", speakers)).toBe("I have a dog");
    expect(statementForm("Würde Anna wahrscheinlich gern Jazz hören?", speakers)).toBe("Ich höre gern Jazz");
    expect(statementForm("Was würde Anna wohl studieren?", speakers)).toBe("Ich studiere");
    expect(statementForm("Würde Anna gern wandern?", speakers)).toBe("Ich wandere gern");
    expect(statementForm("Ist es wahrscheinlich, dass Anna einen Hund hat?", speakers)).toBe("Ich habe einen Hund");
  });

  it("makes the speaker's thing the subject", () => {
    expect(statementForm("What is Anna's favourite book?", speakers)).toBe("my favourite book is");
    expect(statementForm("When is Anna's group performing at a festival?", speakers)).toBe("my group is performing at a festival");
    expect(statementForm("When did Anna's friend adopt a child?", speakers)).toBe("my friend adopt a child");
    expect(statementForm("What does Anna's family give her?", speakers)).toBe("my family gives me");
    expect(statementForm("What might Anna's degree be in?", speakers)).toBe("my degree is in");
    expect(statementForm("Was ist Annas Lieblingsbuch?", speakers)).toBe("mein Lieblingsbuch ist");
    expect(statementForm("Wann hat Annas Freund ein Kind adoptiert?", speakers)).toBe("mein Freund hat ein Kind adoptiert");
    expect(statementForm("Was gibt Annas Familie ihr?", speakers)).toBe("mein Familie gibt mir");
    expect(statementForm("Was würde Annas Meinung wohl sein?", speakers)).toBe("mein Meinung ist");
  });

  it("says two speakers as we", () => {
    expect(statementForm("What did Anna and Lilo both paint?", speakers)).toBe("we both paint");
    expect(statementForm("Do Anna and Lilo start businesses out of what they love?", speakers)).toBe("we start businesses out of what we love");
    expect(statementForm("Was haben Anna und Lilo gemeinsam gemalt?", speakers)).toBe("wir haben gemeinsam gemalt");
  });

  it("says a speaker with their own people as those people and I", () => {
    expect(statementForm("What have Anna and her kids made?", speakers)).toBe("my kids and I have made");
    expect(statementForm("Was haben Anna und ihre Kinder gebastelt?", speakers)).toBe("meine Kinder und ich haben gebastelt");
  });

  it("lets the verb agree with its new subject", () => {
    expect(statementForm("What does Anna do while she writes?", speakers)).toBe("I do while I write");
    expect(statementForm("How did Anna feel when her family helped her?", speakers)).toBe("I feel when my family helped me");
    expect(statementForm("What might Anna say Lilo has?", speakers)).toBe("I say you have");
    expect(statementForm("Was macht Anna, während sie schreibt?", speakers)).toBe("Ich mache während ich schreibe");
    expect(statementForm("Wie fühlte sich Anna, als ihre Familie ihr half?", speakers)).toBe("Ich fühlte mich als meine Familie mir half");
  });
});

const clock = fixedClock("2026-12-02T18:00:00Z");
let t: TestLilo | undefined;

afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

/** The question's words fill the keyword side; the evidence shares none of them. */
const CASES = [
  {
    language: "en",
    question: "What activities does Anna enjoy most?",
    statement: "I enjoy most activities",
    evidence: "I'm off to go swimming with the kids",
    others: [
      "Anna, which activities do you enjoy?",
      "Most activities here are expensive",
      "I enjoy the quiet evenings",
      "Anna enjoys her tea",
      "Enjoy the weekend, Anna!",
    ],
  },
  {
    language: "de",
    question: "Welche Aktivitäten macht Anna am liebsten?",
    statement: "Ich mache Aktivitäten am liebsten",
    evidence: "Gleich geht es mit den Kindern zum Schwimmen",
    others: [
      "Anna, welche Aktivitäten machst du gern?",
      "Die meisten Aktivitäten hier sind teuer",
      "Am liebsten mache ich ruhige Abende",
      "Anna macht Tee",
      "Mach dir ein schönes Wochenende, Anna!",
    ],
  },
  // A guess asked as the plain fact: "I would likely enjoy …" is no longer the statement searched with.
  {
    language: "en",
    question: "Would Anna likely enjoy a pottery class?",
    statement: "I enjoy a pottery class",
    evidence: "Clay in my hands calms me down",
    others: ["Anna, would you like a class?", "The pottery shop is closed", "I would enjoy a quiet week", "Likely rain tomorrow, Anna", "Enjoy the class!"],
  },
  {
    language: "de",
    question: "Würde Anna wahrscheinlich gern töpfern?",
    statement: "Ich töpfere gern",
    evidence: "Mit Lehm in den Händen komme ich zur Ruhe",
    others: ["Anna, würdest du gern malen?", "Wahrscheinlich regnet es morgen", "Gern geschehen, Anna!", "Töpfern ist teuer", "Ich würde gern schlafen"],
  },
] as const;

/** Each text its own conversation on its own day; returns the evidence's id. */
function seed(lilo: TestLilo["lilo"], c: (typeof CASES)[number]): number {
  const texts = [...c.others, c.evidence];
  const ids = lilo.recall.importChat(
    texts.map((text, d) => ({ userId: "chris", role: "user" as const, text, createdAt: `2026-10-${String(d + 1).padStart(2, "0")}T09:00:00Z` })),
  );
  return ids[ids.length - 1]!;
}

describe("the statement form on the meaning side", () => {
  for (const c of CASES) {
    const env = { LILO_USER_NAMES: "chris=Anna", LILO_NAME: "Lilo", LILO_LANGUAGE: c.language };
    /** The statement form means what the evidence says; the question itself is near nothing. */
    const embedder = () => new ControlledEmbedder(64).set(c.statement, basisVector(64, 0)).set(c.evidence, basisVector(64, 0));

    it(`finds a turn that shares no word with "${c.question}" by its statement "${c.statement}"`, async () => {
      t = makeTestLilo(env, { clock, embedder: embedder() });
      const evidence = seed(t.lilo, c);
      await t.lilo.recall.indexMessages("chris");
      const ranked = (await t.lilo.recall.rank(c.question, { userId: "chris", limit: 10 })).map((m) => m.id);
      expect(ranked).toContain(evidence);
    });

    it(`leaves it out with the step off (the premise: neither the words nor the question's vector find it: "${c.question}")`, async () => {
      t = makeTestLilo(env, { clock, embedder: embedder(), tuning: { chatFusion: { statementForm: 0 } } });
      const evidence = seed(t.lilo, c);
      await t.lilo.recall.indexMessages("chris");
      const ranked = (await t.lilo.recall.rank(c.question, { userId: "chris", limit: 10 })).map((m) => m.id);
      expect(ranked).not.toContain(evidence);
    });
  }
});
