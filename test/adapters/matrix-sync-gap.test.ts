import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MemoryStorageProvider } from "matrix-bot-sdk";
import { silentLogger } from "../../core/index.ts";
import { startMatrix, type RunningMatrix } from "../../adapters/matrix/bot.ts";
import { MATRIX_TEXTS } from "../../adapters/matrix/texts.ts";
import type { FakeMatrix } from "../fakes/fake-matrix.ts";
import type { FakeAnthropic } from "../fakes/fake-anthropic.ts";
import type { TestLilo } from "../helpers/test-lilo.ts";
import { ASK, CHRIS, ROOM, chatCalls, roomBodies, startPinRoom, stopPinRoom, storedTexts, type PinRoom } from "./matrix-pin-room.ts";

/**
 * After a sync gap a homeserver sends `timeline.limited` and puts the member
 * changes of the gap only in the room's `state` section, which the SDK never
 * emits. Lilo must see them there, and after any gap ask the server, before
 * she answers again (through the real adapter and matrix-bot-sdk).
 */
const EVE = "@eve:fake.server";
const T = MATRIX_TEXTS.de;
const AGAIN = "Eve ist weg, die PIN für das Fahrradschloss?";

describe("Matrix: member changes after a sync gap", () => {
  let w: PinRoom;
  let hs: FakeMatrix;
  let model: FakeAnthropic;
  let t: TestLilo;
  let bot: RunningMatrix;
  let storage: MemoryStorageProvider;

  beforeEach(async () => {
    w = await startPinRoom(`${CHRIS}=chris`, [AGAIN]);
    ({ hs, model, t, bot, storage } = w);
    // A private room with an answer from memory, and pushes switched on there.
    hs.sendText(ROOM, CHRIS, ASK);
    hs.sendText(ROOM, CHRIS, "!push on");
    await hs.waitFor(() => bodies().length === 2);
    expect(bodies()).toEqual(["Antwort: PIN 4711", T.pushOn]);
  });

  afterEach(async () => {
    w.bot = bot; // a test may have restarted the adapter
    await stopPinRoom(w);
  });

  const bodies = () => roomBodies(w);
  const stored = () => storedTexts(w);
  const chats = () => chatCalls(w);

  it("sees a join or a leave that comes only in a limited sync's state", async () => {
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

  it("judges each message by the members of its moment, even when a gap's join and a timeline leave come in one sync", async () => {
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

  it("leaves a message stored before a restart open while its room is not private, answering it once it is", async () => {
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
