import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MATRIX_TEXTS } from "../../adapters/matrix/texts.ts";
import type { FakeMatrix } from "../fakes/fake-matrix.ts";
import type { FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { isExtraction, type TestLilo } from "../helpers/test-lilo.ts";
import { ASK, CHRIS, ROOM, roomBodies, startPinRoom, stopPinRoom, storedTexts, type PinRoom } from "./matrix-pin-room.ts";

const ANNA = "@anna:fake.server";
const EVE = "@eve:fake.server";
const T = MATRIX_TEXTS.de;

describe("Matrix: Lilo talks only in rooms of her and one allowed user", () => {
  let w: PinRoom;
  let hs: FakeMatrix;
  let model: FakeAnthropic;
  let t: TestLilo;

  beforeEach(async () => {
    w = await startPinRoom(`${CHRIS}=chris,${ANNA}=anna`, ["Jetzt allein: die PIN für das Fahrradschloss?", "Eve ist weg, die PIN für das Fahrradschloss?"]);
    ({ hs, model, t } = w);
  });

  afterEach(() => stopPinRoom(w));

  const bodies = () => roomBodies(w);
  const stored = () => storedTexts(w);

  it("treats a room shared by two allowed users as not private: one notice, nothing of either's memory", async () => {
    hs.addMember(ROOM, ANNA);
    hs.sendText(ROOM, CHRIS, "!memory");
    hs.sendText(ROOM, ANNA, "!memory PIN");
    hs.sendText(ROOM, CHRIS, ASK);
    hs.sendText(ROOM, ANNA, "!push on");
    // Events of a room run in order: once Anna has left, Chris's next message is the barrier.
    hs.removeMember(ROOM, ANNA);
    hs.sendText(ROOM, CHRIS, "Jetzt allein: die PIN für das Fahrradschloss?");
    await hs.waitFor(() => bodies().length === 2);

    expect(bodies()).toEqual([T.notPrivate, "Antwort: PIN 4711"]);
    expect(model.requests.filter((r) => !isExtraction(r.system))).toHaveLength(1);
    expect(JSON.stringify(model.requests)).not.toMatch(/Wie ist Christians|push on/);
    expect(stored()).toEqual(["Jetzt allein: die PIN für das Fahrradschloss?", "Antwort: PIN 4711"]);
    expect(t.lilo.push.target("anna")).toBeUndefined();
  });

  it("talks in a room only while it is private: silent while a third person is in, talking again once they left", async () => {
    hs.sendText(ROOM, CHRIS, ASK);
    await hs.waitFor(() => bodies().length === 1);
    expect(bodies()).toEqual(["Antwort: PIN 4711"]);
    hs.sendText(ROOM, CHRIS, "!push on");
    await hs.waitFor(() => bodies().length === 2);

    hs.addMember(ROOM, EVE);
    hs.sendText(ROOM, CHRIS, "Und jetzt, mit Eve?");
    hs.sendText(ROOM, CHRIS, "!memory");
    await hs.waitFor(() => bodies().length === 3);
    expect(bodies()[2]).toBe(T.notPrivate);
    // A push to the opted-in room is withheld while Eve is there.
    expect(await t.lilo.push.send("chris", { kind: "test", text: "Gruß mit PIN 4711" }, { force: true })).toBe("failed");

    hs.removeMember(ROOM, EVE);
    hs.sendText(ROOM, CHRIS, "Eve ist weg, die PIN für das Fahrradschloss?");
    await hs.waitFor(() => bodies().length === 4);
    expect(bodies()).toEqual(["Antwort: PIN 4711", T.pushOn, T.notPrivate, "Antwort: PIN 4711"]);
    expect(JSON.stringify(hs.sent)).not.toContain("Gruß mit PIN");
    expect(stored().filter((s) => !s.startsWith("Antwort"))).toEqual([ASK, "Eve ist weg, die PIN für das Fahrradschloss?"]);
  });
});
