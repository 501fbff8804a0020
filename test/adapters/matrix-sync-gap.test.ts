import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MemoryStorageProvider } from "matrix-bot-sdk";
import { silentLogger } from "../../core/index.ts";
import { startMatrix, type RunningMatrix } from "../../adapters/matrix/bot.ts";
import { MATRIX_TEXTS } from "../../adapters/matrix/texts.ts";
import { startFakeMatrix, type FakeMatrix } from "../fakes/fake-matrix.ts";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { NO_EXTRACTION, isExtraction, makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { readDb } from "../helpers/read-db.ts";

/**
 * After a sync gap a homeserver sends `timeline.limited` and puts the member
 * changes of the gap only in the room's `state` section, which the SDK never
 * emits. Lilo must see them there, and after any gap ask the server, before
 * she answers again (through the real adapter and matrix-bot-sdk).
 */
const BOT = "@lilo:fake.server";
const CHRIS = "@chris:fake.server";
const EVE = "@eve:fake.server";
const ROOM = "!chris:fake.server";
const T = MATRIX_TEXTS.de;
const ASK = "Wie ist Christians PIN für das Fahrradschloss?";
const AGAIN = "Eve ist weg, die PIN für das Fahrradschloss?";
const PIN_NOTE = "Christians PIN für das Fahrradschloss ist 4711.";

describe("Matrix: member changes after a sync gap", () => {
  let hs: FakeMatrix;
  let model: FakeAnthropic;
  let t: TestLilo;
  let bot: RunningMatrix;
  let storage: MemoryStorageProvider;

  beforeEach(async () => {
    hs = await startFakeMatrix({ botUserId: BOT, accessToken: "mx-token" });
    model = await startFakeAnthropic();
    model.replyAlways(async (body) => (isExtraction(body.system) ? NO_EXTRACTION : `Antwort: ${body.system?.includes("4711") ? "PIN 4711" : "ohne PIN"}`));
    t = makeTestLilo({
      ANTHROPIC_API_KEY: "sk-ant-test",
      ANTHROPIC_BASE_URL: model.baseURL,
      LILO_CHAT_MODEL: "anthropic:claude-test",
      MATRIX_HOMESERVER_URL: hs.url,
      MATRIX_ACCESS_TOKEN: "mx-token",
      MATRIX_ALLOWED_USERS: `${CHRIS}=chris`,
    });
    // Every question about the PIN finds the PIN note (same vector).
    const pin = Array.from({ length: 64 }, (_, i) => (i === 0 ? 1 : 0));
    for (const text of [PIN_NOTE, ASK, AGAIN]) t.embedder.set(text, pin);
    await t.lilo.memory.add({ text: PIN_NOTE, userId: "chris" });
    storage = new MemoryStorageProvider();
    bot = await startMatrix(t.lilo, silentLogger, { storage });
    hs.invite(ROOM, CHRIS);
    await hs.waitFor(() => hs.joined.has(ROOM));
    // A private room with an answer from memory, and pushes switched on there.
    hs.sendText(ROOM, CHRIS, ASK);
    hs.sendText(ROOM, CHRIS, "!push on");
    await hs.waitFor(() => bodies().length === 2);
    expect(bodies()).toEqual(["Antwort: PIN 4711", T.pushOn]);
  });

  afterEach(async () => {
    await bot.stop();
    await hs.close();
    await t.cleanup();
    await model.close();
  });

  const bodies = () => hs.sent.filter((e) => e.roomId === ROOM && e.type === "m.room.message").map((e) => String(e.content.body));
  const stored = () => (readDb(t.lilo).all("SELECT text FROM messages ORDER BY id") as { text: string }[]).map((r) => r.text);
  const chats = () => model.requests.filter((r) => !isExtraction(r.system)).length;

  it("sees a join that comes only in a limited sync's state, and the leave the same way", async () => {
    hs.joinInGap(ROOM, EVE);
    hs.sendText(ROOM, CHRIS, "Und jetzt, mit Eve? Die PIN?");
    hs.sendText(ROOM, CHRIS, "!memory");
    hs.sendText(ROOM, CHRIS, "Hallo?");
    await hs.waitFor(() => bodies().length === 3);
    expect(bodies()[2]).toBe(T.notPrivate);
    expect(chats()).toBe(1);
    expect(await t.lilo.push.send("chris", { kind: "test", text: "Gruß mit PIN 4711" }, { force: true })).toBe("failed");

    hs.leaveInGap(ROOM, EVE);
    hs.sendText(ROOM, CHRIS, AGAIN);
    // A room's events run in order, so the answer comes after the other three were handled: one notice for them.
    await hs.waitFor(() => bodies().length === 4);
    expect(bodies()).toEqual(["Antwort: PIN 4711", T.pushOn, T.notPrivate, "Antwort: PIN 4711"]);
    expect(chats()).toBe(2);
    expect(JSON.stringify(model.requests)).not.toMatch(/mit Eve|Hallo\?/);
    expect(JSON.stringify(hs.sent)).not.toContain("Gruß mit PIN");
    expect(stored().filter((s) => !s.startsWith("Antwort"))).toEqual([ASK, AGAIN]);
  });

  it("asks the server for the members after any limited sync, even one without a member change", async () => {
    const before = hs.memberRequests(ROOM);
    // Eve's join reached the server, but the bot gets no event of it at all: only a gap.
    hs.members.get(ROOM)!.add(EVE);
    hs.gap(ROOM);
    hs.sendText(ROOM, CHRIS, "Und jetzt, mit Eve? Die PIN?");
    await hs.waitFor(() => bodies().length === 3);
    expect(bodies()[2]).toBe(T.notPrivate);
    expect(hs.memberRequests(ROOM)).toBeGreaterThan(before);
    expect(chats()).toBe(1);

    // She left, again unseen but for a gap: the server's member list lets Lilo talk again.
    hs.members.get(ROOM)!.delete(EVE);
    const asked = hs.memberRequests(ROOM);
    hs.gap(ROOM);
    hs.sendText(ROOM, CHRIS, AGAIN);
    await hs.waitFor(() => bodies().length === 4);
    expect(bodies()).toEqual(["Antwort: PIN 4711", T.pushOn, T.notPrivate, "Antwort: PIN 4711"]);
    expect(hs.memberRequests(ROOM)).toBeGreaterThan(asked);
    expect(stored().filter((s) => !s.startsWith("Antwort"))).toEqual([ASK, AGAIN]);
  });

  it("judges each message with the members of its moment when a gap's join and a timeline leave come in one sync", async () => {
    // Written at once, these reach the bot in one sync: Eve's join in its state, then the timeline.
    hs.joinInGap(ROOM, EVE);
    hs.sendText(ROOM, CHRIS, "Mit Eve: die PIN?");
    hs.removeMember(ROOM, EVE);
    hs.sendText(ROOM, CHRIS, AGAIN);
    await hs.waitFor(() => bodies().length === 4);
    expect(bodies()).toEqual(["Antwort: PIN 4711", T.pushOn, T.notPrivate, "Antwort: PIN 4711"]);
    expect(JSON.stringify(model.requests)).not.toContain("Mit Eve");
    expect(stored().filter((s) => !s.startsWith("Antwort"))).toEqual([ASK, AGAIN]);
  });

  it("leaves a message stored before a restart open while its room is not private, and answers it once it is", async () => {
    await bot.stop();
    // Stored with its sync, not answered before the stop; meanwhile Eve joined.
    t.lilo.inbox.receive({ userId: "chris", text: AGAIN, transport: "matrix", chatId: ROOM, externalId: "$stored:fake" });
    hs.members.get(ROOM)!.add(EVE);
    const asked = hs.memberRequests(ROOM);
    bot = await startMatrix(t.lilo, silentLogger, { storage });
    expect(hs.memberRequests(ROOM)).toBeGreaterThan(asked);
    expect(chats()).toBe(1);
    expect(t.lilo.inbox.unfinished("matrix").map((u) => u.externalId)).toEqual(["$stored:fake"]);

    await bot.stop();
    hs.members.get(ROOM)!.delete(EVE);
    bot = await startMatrix(t.lilo, silentLogger, { storage });
    expect(t.lilo.inbox.unfinished("matrix")).toEqual([]);
    expect(bodies()).toEqual(["Antwort: PIN 4711", T.pushOn, "Antwort: PIN 4711"]);
    expect(chats()).toBe(2);
  });
});
