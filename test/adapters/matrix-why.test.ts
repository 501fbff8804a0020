import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryStorageProvider } from "matrix-bot-sdk";
import { EXPORT_STORES } from "../../core/internal.ts";
import { silentLogger } from "../../core/index.ts";
import { JUDGE_PROMPT_MARK } from "../../core/conversation/prompts/correction.ts";
import { startMatrix, type RunningMatrix } from "../../adapters/matrix/bot.ts";
import { startFakeMatrix, type FakeMatrix, type SentEvent } from "../fakes/fake-matrix.ts";
import { startFakeAnthropic, type AnthropicRequestBody, type FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { isExtraction, makeTestLilo, NO_EXTRACTION, type TestLilo } from "../helpers/test-lilo.ts";

// Explaining and correcting memories through the real matrix-bot-sdk client and the fake homeserver: !why, its three typed actions, !forget <words> with ja/nein.
const BOT = "@lilo:fake.server";
const CHRIS = "@chris:fake.server";
const ROOM = "!chris:fake.server";
/** Generous: the machine may be busy; every wait ends on the awaited event. */
const WAIT = 20_000;

const lastUserText = (body: AnthropicRequestBody) => String(body.messages.at(-1)?.content ?? "");

describe("Matrix: !why, !wrong, !outdated and !forget", () => {
  let hs: FakeMatrix;
  let model: FakeAnthropic;
  let t: TestLilo;
  let bot: RunningMatrix;
  /** The judge's verdict for the memory it is shown (its id taken from the prompt). */
  let verdict: { action: string; text?: string; reason: string } = { action: "keep", reason: "" };
  const judgePrompts: string[] = [];
  const ids = { earl: 0, cello: 0, boat: 0 };

  beforeAll(async () => {
    hs = await startFakeMatrix({ botUserId: BOT, accessToken: "mx-token" });
    model = await startFakeAnthropic();
    model.replyAlways((body) => {
      if (isExtraction(body.system)) return NO_EXTRACTION;
      const id = /id=(m\d+) /.exec(lastUserText(body))?.[1];
      if (!String(body.system).includes(JUDGE_PROMPT_MARK) || !id) return "Gern!";
      judgePrompts.push(lastUserText(body));
      return JSON.stringify({ verdicts: [{ id, ...verdict }] });
    });
    t = makeTestLilo({
      ANTHROPIC_API_KEY: "sk-ant-test",
      ANTHROPIC_BASE_URL: model.baseURL,
      LILO_CHAT_MODEL: "anthropic:claude-test",
      LILO_USER_NAMES: "chris=Christian",
      MATRIX_HOMESERVER_URL: hs.url,
      MATRIX_ACCESS_TOKEN: "mx-token",
      MATRIX_ALLOWED_USERS: `${CHRIS}=chris`,
    });
    const add = async (text: string, store: "notes" | "important") => {
      const r = await t.lilo.memory.add({ text, userId: "chris", store, extra: { provenance: "user", provenance_ref: "7" } });
      if (!r.added) throw new Error("setup failed");
      return r.id;
    };
    ids.earl = await add("Christian trinkt gern Earl Grey", "notes");
    ids.cello = await add("Christian spielt Cello", "notes");
    ids.boat = await add("Christian hat ein Boot namens Seestern", "important");
    bot = await startMatrix(t.lilo, silentLogger, { storage: new MemoryStorageProvider() });
    hs.invite(ROOM, CHRIS);
    await hs.waitFor(() => hs.joined.has(ROOM), WAIT);
  });

  afterAll(async () => {
    await bot.stop();
    await hs.close();
    await t.cleanup();
    await model.close();
  });

  /** Sends a text and waits for the bot's next message in the room. */
  async function say(text: string): Promise<string> {
    const from = hs.sent.length;
    hs.sendText(ROOM, CHRIS, text);
    return String((await hs.waitForSent((e) => e.roomId === ROOM && e.type === "m.room.message", WAIT, from)).content.body);
  }

  /** Sends a command that asks a question; returns the question's event once the bot's 👍/👎 hints are on it. */
  async function ask(text: string): Promise<SentEvent> {
    const from = hs.sent.length;
    hs.sendText(ROOM, CHRIS, text);
    const q = await hs.waitForSent((e) => e.roomId === ROOM && e.type === "m.room.message", WAIT, from);
    await hs.waitFor(() => hs.sent.filter((e) => e.type === "m.reaction" && relatesTo(e) === q.eventId).length === 2, WAIT);
    return q;
  }
  const relatesTo = (e: SentEvent) => (e.content["m.relates_to"] as { event_id?: string } | undefined)?.event_id;

  /** The user's reaction on a question; returns the bot's answer to it. */
  async function react(question: SentEvent, key: string): Promise<string> {
    const from = hs.sent.length;
    hs.react(ROOM, CHRIS, question.eventId, key);
    return String((await hs.waitForSent((e) => e.roomId === ROOM && e.type === "m.room.message", WAIT, from)).content.body);
  }

  it("!why offers the last answer's memories with their actions in German, each action doing what it says", async () => {
    expect(await say("Was trinke ich gern? Earl Grey? Und das Boot?")).toBe("Gern!");
    const why = await say("!why");
    expect(why).toContain("Das hatte ich für diese Antwort im Kopf:");
    expect(why).toContain(`N${ids.earl} · Notiz: Christian trinkt gern Earl Grey\n   ↳ deine Worte (Nachricht 7)`);
    expect(why).toContain(`I${ids.boat} · Wichtig: Christian hat ein Boot namens Seestern`);
    expect(why).toContain("Antworte mit !wrong N12, !outdated N12 oder !forget N12 (Nummer aus der Liste).");

    // !wrong: Lilo asks what is wrong; the typed reply goes with the memory to the judge, which rewrites it.
    const question = await ask(`!wrong N${ids.earl}`);
    expect(question.content.body).toBe(
      "Was stimmt an „Christian trinkt gern Earl Grey“ nicht? Schreib mir, wie es richtig ist, dann berichtige ich es. Ist es einfach falsch: „Löschen“.\n\n👍 Löschen · 👎 Stimmt doch",
    );
    expect(t.lilo.memory.get("chris", "notes", ids.earl)).toBeDefined();
    verdict = { action: "rewrite", text: "Christian trinkt gern Rooibos", reason: "he drinks Rooibos" };
    expect(await say("Nein, ich trinke lieber Rooibos")).toMatch(
      /^✏️ Berichtigt: „Christian trinkt gern Earl Grey“ → „Christian trinkt gern Rooibos“ \(rückgängig: lilo corrections undo \d+\)$/,
    );
    expect(judgePrompts.at(-1)).toContain("Nein, ich trinke lieber Rooibos");
    expect(judgePrompts.at(-1)).toContain(`id=m${ids.earl} (note`);
    expect(t.lilo.memory.get("chris", "notes", ids.earl)).toBeUndefined();
    expect(t.lilo.memory.list("chris").map((n) => n.text)).toContain("Christian trinkt gern Rooibos");
    const rewrite = t.lilo.corrections.list({ userId: "chris" })[0]!;
    expect(rewrite).toMatchObject({
      rowId: ids.earl,
      action: "rewrite",
      newText: "Christian trinkt gern Rooibos",
      triggerText: "Nein, ich trinke lieber Rooibos",
    });
    await t.lilo.corrections.undo(rewrite.id);
    expect(t.lilo.memory.get("chris", "notes", ids.earl)?.text).toBe("Christian trinkt gern Earl Grey");

    // !wrong, then 👍 ("Löschen"): superseded without a judge call, logged, undoable.
    const judged = judgePrompts.length;
    const again = await ask(`!wrong N${ids.earl}`);
    expect(await react(again, "👍")).toMatch(/^✏️ Gelöscht: „Christian trinkt gern Earl Grey“ \(rückgängig: lilo corrections undo \d+\)$/);
    expect(judgePrompts).toHaveLength(judged);
    expect(t.lilo.memory.get("chris", "notes", ids.earl)).toBeUndefined();
    const deletion = t.lilo.corrections.list({ userId: "chris" })[0]!;
    expect(deletion).toMatchObject({ rowId: ids.earl, action: "delete", triggerText: "stimmt nicht" });
    await t.lilo.corrections.undo(deletion.id);

    // !outdated: superseded with the date, kept in the history.
    expect(await say(`!outdated I${ids.boat}`)).toBe("🕰 Als veraltet markiert: „Christian hat ein Boot namens Seestern“ – bleibt in der Geschichte.");
    expect(t.lilo.memory.get("chris", "important", ids.boat)).toBeUndefined();
    expect(t.lilo.corrections.list({ userId: "chris" })[0]).toMatchObject({ rowId: ids.boat, reason: expect.stringMatching(/outdated on \d{4}-\d{2}-\d{2}/) });

    // !forget N…: the findings listed, forgotten everywhere after 👍.
    const forget = await ask(`!forget N${ids.cello}`);
    expect(forget.content.body).toContain(`Notiz #${ids.cello}: Christian spielt Cello`);
    expect(await react(forget, "👍")).toMatch(/^🗑 Vergessen: [1-9]\d* entfernt/);
    expect(t.lilo.memory.get("chris", "notes", ids.cello)).toBeUndefined();
    expect(await say("!wrong N999999")).toBe("Diesen Eintrag gibt es nicht (mehr).");
  });

  it("!forget <words> lists the findings, forgetting them everywhere only on a typed ja", async () => {
    const found = await ask("!forget Earl Grey");
    expect(found.content.body).toMatch(/^Das habe ich gefunden \(\d+\):/);
    expect(found.content.body).toContain(`Notiz #${ids.earl}: Christian trinkt gern Earl Grey`);
    expect(found.content.body).toContain("Nachricht #"); // the chat turn that mentioned it
    expect(await say("nein")).toBe("Okay, ich vergesse nichts.");
    expect(t.lilo.memory.get("chris", "notes", ids.earl)?.text).toBe("Christian trinkt gern Earl Grey");
    expect(JSON.stringify(await t.lilo.recall.passages("Earl Grey", { userId: "chris", limit: 5 }))).toContain("Earl Grey");

    await ask("!forget Earl Grey");
    expect(await say("ja")).toMatch(/^🗑 Vergessen: [1-9]\d* entfernt, \d+ umgeschrieben, [1-9]\d* Nachrichten geschwärzt\.$/);
    expect(t.lilo.memory.get("chris", "notes", ids.earl)).toBeUndefined();
    expect(t.lilo.memory.list("chris").some((n) => n.text.includes("Earl Grey"))).toBe(false);
    expect(JSON.stringify(await t.lilo.recall.passages("Earl Grey", { userId: "chris", limit: 5 }))).not.toContain("Earl Grey");
    expect(JSON.stringify(EXPORT_STORES.map((store) => t.lilo.transfer.export(store, "chris")))).not.toContain("Earl Grey");
  });
});
