import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MemoryStorageProvider } from "matrix-bot-sdk";
import { silentLogger } from "../../core/index.ts";
import { startMatrix, type RunningMatrix } from "../../adapters/matrix/bot.ts";
import { MATRIX_TEXTS } from "../../adapters/matrix/texts.ts";
import { startFakeMatrix, type FakeMatrix } from "../fakes/fake-matrix.ts";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { NO_EXTRACTION, isExtraction, makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { readDb } from "../helpers/read-db.ts";

const BOT = "@lilo:fake.server";
const CHRIS = "@chris:fake.server";
const ANNA = "@anna:fake.server";
const EVE = "@eve:fake.server";
const ROOM = "!chris:fake.server";
const T = MATRIX_TEXTS.de;
const ASK = "Wie ist Christians PIN für das Fahrradschloss?";
const PIN_NOTE = "Christians PIN für das Fahrradschloss ist 4711.";

describe("Matrix: Lilo talks only in rooms of her and one allowed user", () => {
  let hs: FakeMatrix;
  let model: FakeAnthropic;
  let t: TestLilo;
  let bot: RunningMatrix;

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
      MATRIX_ALLOWED_USERS: `${CHRIS}=chris,${ANNA}=anna`,
    });
    // Every question about the PIN finds the PIN note (same vector).
    const pin = Array.from({ length: 64 }, (_, i) => (i === 0 ? 1 : 0));
    for (const text of [PIN_NOTE, ASK, "Jetzt allein: die PIN für das Fahrradschloss?", "Eve ist weg, die PIN für das Fahrradschloss?"])
      t.embedder.set(text, pin);
    await t.lilo.memory.add({ text: PIN_NOTE, userId: "chris" });
    bot = await startMatrix(t.lilo, silentLogger, { storage: new MemoryStorageProvider() });
    hs.invite(ROOM, CHRIS);
    await hs.waitFor(() => hs.joined.has(ROOM));
  });

  afterEach(async () => {
    await bot.stop();
    await hs.close();
    await t.cleanup();
    await model.close();
  });

  const bodies = () => hs.sent.filter((e) => e.roomId === ROOM && e.type === "m.room.message").map((e) => String(e.content.body));
  const stored = () => (readDb(t.lilo).all("SELECT text FROM messages ORDER BY id") as { text: string }[]).map((r) => r.text);

  it("gives a room shared by two allowed users one notice and nothing of either's memory", async () => {
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

  it("stops talking when a third person joins, and talks again once they left", async () => {
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
