/**
 * German and English kept equal: a German note or chat message
 * reaches the sheet for an English question and the reverse, by meaning
 * alone (no shared word). The embedder stands in for the default
 * multilingual model (its id, so its floors apply; a translation pair at
 * the cosine such a model gives it, unrelated texts orthogonal).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "../../../core/index.ts";
import { sheetMessageIds } from "../../../core/conversation/turn/memory-blocks.ts";
import { ControlledEmbedder, basisVector, vectorWithCosine } from "../../fakes/controlled-embedder.ts";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";

const DIM = 64;
const MULTILINGUAL = "Xenova/paraphrase-multilingual-MiniLM-L12-v2";
/** Cosine of a question and the note that answers it in the other language (above the model's notes floor of 0.4). */
const TRANSLATION_COSINE = 0.7;

/** Note (stored text) and question in the other language; no word in common. */
const TABLE: { note: string; question: string }[] = [
  { note: "Meine Schwester wohnt jetzt in Hamburg.", question: "Where does my sister live?" },
  { note: "Ich bin allergisch gegen Katzen.", question: "Which allergy do I have?" },
  { note: "Unser Urlaub geht dieses Jahr nach Italien.", question: "Where are we going on holiday?" },
  { note: "My brother plays bass in a jazz band.", question: "Welches Instrument spielt mein Bruder?" },
  { note: "I am training for a half marathon.", question: "Wofür trainiere ich gerade?" },
  { note: "Our landlord raised the rent again.", question: "Was hat der Vermieter gemacht?" },
];

let t: TestLilo;
const messageIds = new Map<string, number>();

beforeAll(async () => {
  const embedder = new ControlledEmbedder(DIM, MULTILINGUAL);
  TABLE.forEach((row, i) => {
    const q = basisVector(DIM, i);
    // Each note leans into its own far axis, so it is orthogonal to every other row's question.
    embedder.set(row.question, q).set(row.note, vectorWithCosine(q, TRANSLATION_COSINE, 30 + i));
  });
  t = makeTestLilo({ LILO_USER_NAMES: "chris=Christian" }, { embedder, clock: fixedClock("2026-12-02T18:00:00Z") });
  for (const [i, row] of TABLE.entries()) {
    await t.lilo.memory.add({ userId: "chris", text: row.note, createdAt: `2026-10-${10 + i}T09:00:00Z` });
    const [id] = t.lilo.recall.importChat([{ userId: "chris", role: "user", text: row.note, createdAt: `2026-10-${10 + i}T09:00:00Z` }]);
    messageIds.set(row.note, id!);
  }
});

afterAll(async () => {
  await t.cleanup();
});

describe("German and English on the sheet", () => {
  it.each(TABLE)("$question → $note", async ({ note, question }) => {
    const p = await t.lilo.preview({ userId: "chris", text: question });
    // The note by meaning, and the chat message by the meaning side of the chat-log search.
    expect(p.blocks.notes.kept.map((n) => n.text)).toContain(note);
    expect(sheetMessageIds(p.blocks.passages.kept)).toContain(messageIds.get(note));
    // Nothing of another row: equal treatment also means no language drags in the rest.
    const others = TABLE.filter((r) => r.note !== note).map((r) => r.note);
    expect(p.blocks.notes.kept.map((n) => n.text).filter((x) => others.includes(x))).toEqual([]);
  });
});
