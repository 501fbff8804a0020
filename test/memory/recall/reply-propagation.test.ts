/**
 * A question's answer is in the reply: when the search's words
 * match a question ("What inspired it?"), the other side's next message —
 * which shares none of them — ranks right after it. Real SQLite, the
 * public `recall.rank`; the test embedder makes the question the closest in
 * meaning too, so it leads both sides and only this step can bring its answer.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fixedClock } from "../../../core/index.ts";
import { asksSomething } from "../../../core/memory/recall/reply-propagation.ts";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";
import { basisVector, ControlledEmbedder } from "../../fakes/controlled-embedder.ts";

const clock = fixedClock("2026-12-02T18:00:00Z");
let t: TestLilo | undefined;

afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

type Line = [role: "user" | "assistant", text: string];

/** Each group is one conversation on its own day; returns the ids in order. */
function seed(lilo: TestLilo["lilo"], groups: Line[][]): number[] {
  const at = (day: number, minute: number) => `2026-10-${String(day + 1).padStart(2, "0")}T09:${String(minute).padStart(2, "0")}:00Z`;
  return lilo.recall.importChat(groups.flatMap((g, d) => g.map(([role, text], i) => ({ userId: "chris", role, text, createdAt: at(d, i) }))));
}

const QUESTION = "It looks wonderful! What inspired your painting for the art show?";
const SEARCH = "What inspired the painting for the art show?";

/** The question and the search mean the same; every other text is unrelated in meaning. */
const embedder = () => new ControlledEmbedder(64).set(QUESTION, basisVector(64, 0)).set(SEARCH, basisVector(64, 0));

const ART: Line[][] = [
  [
    ["user", "I finished my painting for the art show"],
    ["assistant", QUESTION],
    ["user", "A visit to the community centre downtown, everyone there was so welcoming"],
  ],
  [["user", "The art show posters are up in town"]],
  [["user", "Painting the kitchen took the whole weekend"]],
  [["user", "I bought new brushes, my old painting brushes were worn out"]],
  [["user", "My sister also wants to show a painting at the art show"]],
  [["user", "Last year's art show inspired me to start painting again"]],
  [["user", "Which painting should I show? The art show jury is strict"]],
  [["user", "A friend inspired my first painting years ago"]],
];

describe("the reply to a ranked question", () => {
  it("ranks right after the question, though it shares none of the search's words", async () => {
    t = makeTestLilo({}, { clock, embedder: embedder() });
    const ids = seed(t.lilo, ART);
    const [question, answer] = [ids[1]!, ids[2]!];
    const ranked = (await t.lilo.recall.rank(SEARCH, { userId: "chris", limit: 4 })).map((m) => m.id);
    expect(ranked.slice(0, 2)).toEqual([question, answer]);
  });

  it("stays where its words put it when the step is off (the premise of the test above)", async () => {
    t = makeTestLilo({}, { clock, embedder: embedder(), tuning: { chatFusion: { replies: 0 } } });
    const ids = seed(t.lilo, ART);
    const ranked = (await t.lilo.recall.rank(SEARCH, { userId: "chris", limit: 4 })).map((m) => m.id);
    expect(ranked[0]).toBe(ids[1]);
    expect(ranked).not.toContain(ids[2]);
  });

  it("is only the other side's answer: a second message by the asker is not raised (German)", async () => {
    t = makeTestLilo({ LILO_LANGUAGE: "de" }, { clock });
    const ids = seed(t.lilo, [
      [
        ["assistant", "Wie war das Konzert in Rom?"],
        ["assistant", "Ich hoffe, die Reise war schön."],
        ["user", "Wunderbar, wir standen ganz vorne und haben die ganze Nacht getanzt"],
      ],
      [["user", "Das Konzert im Park fiel aus"]],
      [["user", "Rom ist im Sommer zu heiß"]],
      [["user", "Für das Konzert nächste Woche habe ich noch keine Karten"]],
    ]);
    const ranked = (await t.lilo.recall.rank("Konzert in Rom", { userId: "chris", limit: 3 })).map((m) => m.id);
    expect(ranked[0]).toBe(ids[0]);
    expect(ranked).not.toContain(ids[1]);
  });

  it("follows a question, German or English", () => {
    expect(asksSomething("What inspired it?")).toBe(true);
    expect(asksSomething("Wie war's in Rom? Erzähl!")).toBe(true);
    expect(asksSomething("That must have been breathtaking!")).toBe(false);
  });
});
