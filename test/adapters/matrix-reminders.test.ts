import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryStorageProvider } from "matrix-bot-sdk";
import { fixedClock, silentLogger } from "../../core/index.ts";
import { startMatrix, type RunningMatrix } from "../../adapters/matrix/bot.ts";
import { startFakeMatrix, type FakeMatrix } from "../fakes/fake-matrix.ts";
import { makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";

// Reminders through the real matrix-bot-sdk client and the fake homeserver: !remind, !reminders and the typed actions Telegram has as buttons.
const BOT = "@lilo:fake.server";
const CHRIS = "@chris:fake.server";
const ANNA = "@anna:fake.server";
const ROOM = "!chris:fake.server";
const ANNA_ROOM = "!anna:fake.server";
/** Generous: the machine may be busy; every wait ends on the awaited event. */
const WAIT = 20_000;

describe("Matrix: !remind, !reminders, !done, !snooze, !delete", () => {
  const clock = fixedClock("2025-12-05T10:00:00Z"); // Friday, 11:00 in Berlin
  let hs: FakeMatrix;
  let t: TestLilo;
  let bot: RunningMatrix;

  beforeAll(async () => {
    hs = await startFakeMatrix({ botUserId: BOT, accessToken: "mx-token" });
    t = makeTestLilo(
      {
        LILO_TIMEZONE: "Europe/Berlin",
        LILO_LANGUAGE: "de",
        MATRIX_HOMESERVER_URL: hs.url,
        MATRIX_ACCESS_TOKEN: "mx-token",
        MATRIX_ALLOWED_USERS: `${CHRIS}=chris,${ANNA}=anna`,
      },
      { clock },
    );
    bot = await startMatrix(t.lilo, silentLogger, { storage: new MemoryStorageProvider() });
    hs.invite(ROOM, CHRIS);
    hs.invite(ANNA_ROOM, ANNA);
    await hs.waitFor(() => hs.joined.has(ROOM) && hs.joined.has(ANNA_ROOM), WAIT);
  });

  afterAll(async () => {
    await bot.stop();
    await hs.close();
    await t.cleanup();
  });

  /** Sends a text and waits for the bot's next message in the room. */
  async function say(text: string, room = ROOM, sender = CHRIS): Promise<string> {
    const from = hs.sent.length;
    hs.sendText(room, sender, text);
    return String((await hs.waitForSent((e) => e.roomId === room && e.type === "m.room.message", WAIT, from)).content.body);
  }

  it("!remind is confirmed with the local time and the typed actions; it rings in the room once, with them", async () => {
    const confirmed = await say("!remind in 1 Minute Tee aufsetzen");
    const [r] = t.lilo.reminders.list("chris");
    expect(confirmed).toContain("⏰ Ich erinnere dich heute, Fr 5.12., um 11:01 an: Tee aufsetzen");
    expect(confirmed).toContain(`!done ${r!.id}`);
    expect(r).toMatchObject({ transport: "matrix", chatId: ROOM });

    const from = hs.sent.length;
    clock.advance(60_000);
    await t.lilo.reminders.runDue();
    const ring = await hs.waitForSent((e) => e.roomId === ROOM && e.type === "m.room.message", WAIT, from);
    expect(String(ring.content.body)).toContain("⏰ Du wolltest erinnert werden: Tee aufsetzen");
    expect(String(ring.content.body)).toContain(`!snooze ${r!.id}`);
    await t.lilo.reminders.runDue();
    expect(hs.sent.slice(from).filter((e) => e.type === "m.room.message")).toHaveLength(1);
  });

  it("!reminders lists each with its number; !snooze, !done and !delete act on it, someone else's number is not found", async () => {
    await say("!remind morgen 9:00 Mama anrufen");
    await say("!remind jeden Montag um 8 Mülltonnen raus");
    const [call, bins] = t.lilo.reminders.list("chris");
    const list = await say("!reminders");
    expect(list).toContain(`\`${call!.id}\` Sa 6.12., 09:00 – Mama anrufen`);
    expect(list).toContain(`\`${bins!.id}\` Mo 8.12., 08:00 (jeden Mo um 08:00) – Mülltonnen raus`);

    expect(await say(`!done ${call!.id}`, ANNA_ROOM, ANNA)).toBe("Diese Erinnerung gibt es nicht (mehr).");
    expect(await say(`!snooze ${call!.id} 1h`)).toBe("💤 Verschoben auf Fr 5.12., 12:01.");
    expect(await say(`!done ${call!.id}`)).toBe("✅ Erledigt.");
    expect(await say(`!delete ${bins!.id}`)).toBe("🗑 Gelöscht.");
    expect(await say("!done")).toContain("Welche Erinnerung?");
    expect(t.lilo.reminders.list("chris")).toEqual([]);
    expect(await say("!reminders")).toContain("Du hast keine offenen Erinnerungen.");
  });
});
