/**
 * Answers shown as they are written in a Matrix room: the real
 * matrix-bot-sdk client against the fake homeserver, a fake Anthropic that
 * streams its answer at a set pace.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryStorageProvider } from "matrix-bot-sdk";
import { silentLogger } from "../../core/index.ts";
import { normalizeText } from "../../core/internal.ts";
import { startMatrix, type RunningMatrix } from "../../adapters/matrix/bot.ts";
import { renderMatrix } from "../../adapters/matrix/format.ts";
import { startFakeMatrix, type FakeMatrix } from "../fakes/fake-matrix.ts";
import { startFakeAnthropic, type AnthropicReply, type FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { piecesOf } from "../fakes/sse.ts";
import { isExtraction, makeTestLilo, NO_EXTRACTION, type TestLilo } from "../helpers/test-lilo.ts";
import { readDb } from "../helpers/read-db.ts";
import { appliedEdits, botMessages } from "./matrix-edits.ts";

const BOT = "@lilo:fake.server";
const CHRIS = "@chris:fake.server";
const ROOM = "!chris:fake.server";
const MAX_CHARS = 2_000;
const WAIT = 20_000;
/** The room's pace shortened, so a stream of half a second shows several edits. */
const LIVE = { firstShowMs: 30, editIntervalMs: 80 };

const BEFORE = "Das freut mich sehr, dass du heute beim Zahnarzt warst und alles gut gegangen ist. ";
const AFTER = "Wie geht es deinem Zahn jetzt, tut er noch weh oder ist alles wieder gut? Erzähl mir ruhig mehr davon.";
const MARKED = `${BEFORE}[IMPORTANT: Christian war am Freitag beim Zahnarzt] ${AFTER}`;
const SHOWN = `${BEFORE}${AFTER}`;

/** A long answer in paragraphs with a marker in its middle, and its text without the marker. */
function longAnswer(): { marked: string; shown: string } {
  const paragraph = (n: number) => `Absatz ${n}: ${"Lilo erzählt von ihrem Tag und von den Dingen, die ihr wichtig sind. ".repeat(6).trim()}`;
  const paragraphs = Array.from({ length: 14 }, (_, i) => paragraph(i + 1));
  const shown = paragraphs.join("\n\n");
  const marked = [...paragraphs.slice(0, 7), "[REMEMBER: Christian liest gern lange Antworten]", ...paragraphs.slice(7)].join("\n\n");
  return { marked, shown };
}

describe("Matrix shows an answer as it is written", () => {
  let hs: FakeMatrix;
  let model: FakeAnthropic;
  let t: TestLilo;
  let bot: RunningMatrix;
  let reply: AnthropicReply = "ok";
  /** Chat replies given once each, in order, before `reply`. */
  const queued: AnthropicReply[] = [];

  beforeAll(async () => {
    hs = await startFakeMatrix({ botUserId: BOT, accessToken: "mx-token" });
    model = await startFakeAnthropic();
    model.replyAlways((body) => (isExtraction(body.system) ? NO_EXTRACTION : (queued.shift() ?? reply)));
    t = makeTestLilo({
      ANTHROPIC_API_KEY: "sk-ant-test",
      ANTHROPIC_BASE_URL: model.baseURL,
      LILO_CHAT_MODEL: "anthropic:claude-test",
      MATRIX_HOMESERVER_URL: hs.url,
      MATRIX_ACCESS_TOKEN: "mx-token",
      MATRIX_ALLOWED_USERS: `${CHRIS}=chris`,
      MATRIX_MAX_MESSAGE_CHARS: String(MAX_CHARS),
    });
    bot = await startMatrix(t.lilo, silentLogger, { storage: new MemoryStorageProvider(), liveTiming: LIVE });
    hs.invite(ROOM, CHRIS);
    await hs.waitFor(() => hs.joined.has(ROOM), WAIT);
  });

  afterAll(async () => {
    await bot.stop();
    await hs.close();
    await t.cleanup();
    await model.close();
  });

  const delivered = () => (readDb(t.lilo).get("SELECT count(*) AS n FROM messages WHERE role = 'assistant' AND delivery = 'delivered'") as { n: number }).n;

  /** Sends `text` and waits until its answer is delivered (its final text sent); returns where the bot's sends stood. */
  async function ask(text: string): Promise<number> {
    const from = hs.sent.length;
    const before = delivered();
    hs.sendText(ROOM, CHRIS, text);
    await hs.waitFor(() => delivered() > before, WAIT);
    return from;
  }

  it("sends the first words as a message, edits it while the model writes, and ends on the final text", async () => {
    reply = { text: MARKED, stream: { pieces: piecesOf(MARKED, 6), paceMs: 12 } };
    const from = await ask("Ich war beim Zahnarzt");
    const events = botMessages(hs, ROOM, from);
    const first = events[0]!;
    expect(first.content["m.relates_to"]).toBeUndefined();
    expect(SHOWN.startsWith(String(first.content.body))).toBe(true);
    expect(String(first.content.body).length).toBeLessThan(SHOWN.length);
    const edits = events.slice(1);
    expect(edits.length).toBeGreaterThanOrEqual(2);
    for (const edit of edits) expect(edit.content["m.relates_to"]).toEqual({ rel_type: "m.replace", event_id: first.eventId });
    expect(appliedEdits(hs, ROOM, from).map((c) => c.body)).toEqual([SHOWN]);
    expect(readDb(t.lilo).get("SELECT text FROM messages WHERE role = 'assistant' ORDER BY id DESC LIMIT 1")).toEqual({ text: SHOWN });
  });

  it("keeps showing the answer across a tool call in its middle, and ends on the answer after it", async () => {
    const after = "Du trinkst am liebsten grünen Tee, am Nachmittag mit etwas Honig.";
    queued.push(
      { text: "Moment, ich schaue nach.", toolCalls: [{ name: "memory_search", input: { query: "Tee" } }], stream: { paceMs: 40 } },
      { text: after, stream: { paceMs: 60 } },
    );
    const from = await ask("Was trinke ich gern?");
    expect(queued).toEqual([]);
    const events = botMessages(hs, ROOM, from);
    // The words before the tool call were shown first, then edited into the answer after it.
    expect(String(events[0]!.content.body)).toMatch(/^Mom/);
    expect(appliedEdits(hs, ROOM, from).map((c) => c.body)).toEqual([after]);
    expect(readDb(t.lilo).get("SELECT text FROM messages WHERE role = 'assistant' ORDER BY id DESC LIMIT 1")).toEqual({ text: after });
  });

  it("never shows a marker or the beginning of one in any message or edit", async () => {
    reply = { text: MARKED, stream: { pieces: piecesOf(MARKED, 2), paceMs: 4 } };
    const from = await ask("Ich war wieder beim Zahnarzt");
    const events = botMessages(hs, ROOM, from);
    expect(events.length).toBeGreaterThanOrEqual(2);
    for (const e of events) {
      const inner = (e.content["m.new_content"] ?? {}) as Record<string, unknown>;
      for (const text of [e.content.body, e.content.formatted_body, inner.body, inner.formatted_body]) {
        expect(String(text ?? "")).not.toMatch(/\[|IMPORTANT|Freitag/);
      }
    }
  });

  it("sends a quickly written answer once, without edits", async () => {
    reply = { text: MARKED };
    const from = await ask("Kurz bitte");
    const events = botMessages(hs, ROOM, from);
    expect(events).toHaveLength(1);
    expect(events[0]!.content).toMatchObject({ msgtype: "m.text", body: SHOWN });
  });

  it("grows a long answer into several messages, each ending as the answer's part sent whole", async () => {
    const { marked, shown } = longAnswer();
    reply = { text: marked, stream: { pieces: piecesOf(marked, 40), paceMs: 4 } };
    const from = await ask("Erzähl mir viel");
    const expected = renderMatrix(normalizeText(shown), MAX_CHARS);
    expect(expected.length).toBeGreaterThanOrEqual(3);
    const final = appliedEdits(hs, ROOM, from);
    expect(final.map((c) => c.body)).toEqual(expected.map((p) => p.body));
    expect(final.map((c) => c.formatted_body)).toEqual(expected.map((p) => p.html));
    expect(botMessages(hs, ROOM, from).some((e) => e.content["m.relates_to"])).toBe(true);
    for (const e of botMessages(hs, ROOM, from)) expect(JSON.stringify(e.content)).not.toMatch(/\[|REMEMBER/);
  });

  it("edits what was shown into the error sentence when the model breaks off mid-answer, leaving no half answer", async () => {
    reply = { text: MARKED, stream: { pieces: piecesOf(MARKED, 6), paceMs: 12, dropAfter: 20 } };
    const from = hs.sent.length;
    hs.sendText(ROOM, CHRIS, "Und dann?");
    await hs.waitFor(() => {
      const final = appliedEdits(hs, ROOM, from).map((c) => String(c.body));
      return final.length === 1 && !SHOWN.startsWith(final[0]!);
    }, WAIT);
    const events = botMessages(hs, ROOM, from);
    expect(SHOWN.startsWith(String(events[0]!.content.body))).toBe(true);
    expect(events.at(-1)!.content["m.relates_to"]).toEqual({ rel_type: "m.replace", event_id: events[0]!.eventId });
  });

  it("sends the answer whole, once, when streaming is switched off", async () => {
    await t.lilo.settings.set("streaming", "off");
    try {
      reply = { text: MARKED, stream: { pieces: piecesOf(MARKED, 6), paceMs: 5 } };
      const from = await ask("Ohne Vorschau bitte");
      const events = botMessages(hs, ROOM, from);
      expect(events).toHaveLength(1);
      expect(events[0]!.content.body).toBe(SHOWN);
    } finally {
      await t.lilo.settings.set("streaming", "auto");
    }
  });
});
