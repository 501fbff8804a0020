/**
 * End-to-end encryption with two real crypto clients over the fake
 * homeserver: Lilo's device inside the real adapter (matrix-bot-sdk + the
 * Matrix Rust crypto as WebAssembly) and the user's device (another
 * OlmMachine, test/fakes/matrix-crypto-client.ts). Keys go through
 * keys/upload, keys/query, keys/claim and to-device messages; nothing but
 * ciphertext crosses the fake in the encrypted room. Lilo's keys live in
 * her database (table device_key_records), never in a file of their own.
 */
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryStorageProvider } from "matrix-bot-sdk";
import { consoleLogger, silentLogger, type Lilo, type TurnMiddleware } from "../../core/index.ts";
import { ruleQuestionText } from "../../core/conversation/questions/rule-question.ts";
import { startMatrix, type RunningMatrix } from "../../adapters/matrix/bot.ts";
import { cryptoDir } from "../../adapters/matrix/crypto/crypto-dir.ts";
import { writeLegacyMatrixStore } from "../helpers/legacy-matrix-store.ts";
import { CRYPTO_TEXTS } from "../../adapters/matrix/crypto/crypto-texts.ts";
import { startFakeMatrix, type FakeMatrix, type SentEvent } from "../fakes/fake-matrix.ts";
import { startFakeAnthropic, type AnthropicRequestBody, type FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { CryptoTestClient } from "../fakes/matrix-crypto-client.ts";
import { isExtraction, makeTestLilo, NO_EXTRACTION, type TestLilo } from "../helpers/test-lilo.ts";
import { readDb } from "../helpers/read-db.ts";
import { piecesOf } from "../fakes/sse.ts";
import { appliedEditsOf } from "./matrix-edits.ts";

const BOT = "@lilo:fake.server";
const CHRIS = "@chris:fake.server";
const ROOM = "!secret:fake.server";
const PLAIN = "!plain:fake.server";
const RULE = "Antworte kürzer.";
const STORE = "matrix/FAKEDEVICE";
/** An answer the fake model writes slowly, shown in the room as it is written (at a shortened pace). */
const SLOW_ASK = "Schreib mir langsam";
const SLOW_ANSWER = "Ich schreibe dir eine etwas längere Antwort, Stück für Stück, damit du sie schon beim Schreiben lesen kannst.";
const LIVE = { firstShowMs: 30, editIntervalMs: 80 };
const PNG = Buffer.from("\x89PNG-ENCRYPTED-PHOTO-BYTES", "latin1");

describe("Matrix end-to-end encryption (two real crypto clients)", () => {
  let hs: FakeMatrix;
  let model: FakeAnthropic;
  let t: TestLilo;
  let bot: RunningMatrix;
  let chris: CryptoTestClient;
  const storage = new MemoryStorageProvider();
  let clockShift = 0;
  const logger = process.env.DEBUG_MATRIX ? consoleLogger("debug") : silentLogger;
  const lastUser = (body: AnthropicRequestBody) => body.messages.at(-1)?.content;
  const chats = () => model.requests.filter((r) => !isExtraction(r.system));

  beforeAll(async () => {
    hs = await startFakeMatrix({ botUserId: BOT, accessToken: "mx-token" });
    model = await startFakeAnthropic();
    model.replyAlways((body) => {
      if (isExtraction(body.system)) return NO_EXTRACTION;
      const content = lastUser(body);
      const text = typeof content === "string" ? content : JSON.stringify(content);
      if (text === SLOW_ASK) return { text: SLOW_ANSWER, stream: { pieces: piecesOf(SLOW_ANSWER, 4), paceMs: 12 } };
      return `Antwort auf: ${text.slice(0, 60)}`;
    });
    let lilo: Lilo | undefined;
    // Asks the learned-rule question when the user says "merk dir", as the correction step would.
    const ask: TurnMiddleware = {
      name: "test-ask",
      async run(ctx, next) {
        if (ctx.text.includes("merk dir")) ctx.question = lilo!.questions.ask(ctx.userId, "rule", { rule: RULE }, ruleQuestionText("de", RULE), 3_600_000);
        await next();
      },
    };
    t = makeTestLilo(
      {
        ANTHROPIC_API_KEY: "sk-ant-test",
        ANTHROPIC_BASE_URL: model.baseURL,
        LILO_CHAT_MODEL: "anthropic:claude-test",
        MATRIX_HOMESERVER_URL: hs.url,
        MATRIX_ACCESS_TOKEN: "mx-token",
        MATRIX_ALLOWED_USERS: `${CHRIS}=chris`,
      },
      // A clock the last test moves a day on (a key that never comes is given up).
      { steps: [ask], clock: { now: () => new Date(Date.now() + clockShift) } },
    );
    lilo = t.lilo;
    bot = await startMatrix(t.lilo, logger, { storage, liveTiming: LIVE });
    chris = await CryptoTestClient.create(hs, CHRIS);
    hs.invite(ROOM, CHRIS);
    hs.encryptRoom(ROOM, CHRIS);
    await hs.waitFor(() => hs.joined.has(ROOM));
  });

  afterAll(async () => {
    chris.close();
    await bot.stop();
    await hs.close();
    await t.cleanup();
    await model.close();
  });

  type Read = { sent: SentEvent; type: string; content: Record<string, unknown> };
  /** Lilo's first message in `room` after index `from` whose text matches, as Chris's client reads it. */
  const nextMessage = async (from: number, room = ROOM, match: (body: string) => boolean = () => true): Promise<Read> => {
    for (let checked = from; ;) {
      await hs.waitFor(() => hs.sent.length > checked, 10_000);
      for (const sent of hs.sent.slice(checked)) {
        checked++;
        if (sent.roomId !== room) continue;
        const read = await chris.read(sent);
        if (read.type === "m.room.message" && match(String(read.content.body))) return { sent, ...read };
      }
    }
  };

  /** Chris sends `text` with its room key held back; resolves once Lilo has confirmed the sync with the message. Returns where Lilo's sends stood. */
  const sendWithKeyHeld = async (text: string): Promise<number> => {
    chris.holdRoomKeys();
    const from = hs.sent.length;
    await chris.sendText(ROOM, text);
    const position = hs.position();
    await hs.waitFor(() => hs.lastSince >= position);
    return from;
  };

  it("talks end to end encrypted: the user's message decrypted, the answer encrypted for the user's client", async () => {
    const from = hs.sent.length;
    await chris.sendText(ROOM, "Hallo Lilo, geheim");
    const answer = await nextMessage(from);
    expect(answer.sent.type).toBe("m.room.encrypted");
    expect(JSON.stringify(answer.sent.content)).not.toContain("Antwort");
    expect(answer).toMatchObject({ type: "m.room.message", content: { msgtype: "m.text", body: "Antwort auf: Hallo Lilo, geheim" } });
    expect(readDb(t.lilo).all("SELECT role, text FROM messages ORDER BY id")).toEqual([
      { role: "user", text: "Hallo Lilo, geheim" },
      { role: "assistant", text: "Antwort auf: Hallo Lilo, geheim" },
    ]);
    // Keys went through the key endpoints; the room key to Lilo's device as a to-device message.
    expect(hs.keys.devices.get(BOT)?.has("FAKEDEVICE")).toBe(true);
    expect(hs.keys.toDeviceLog.some((m) => m.sender === CHRIS && m.userId === BOT && m.type === "m.room.encrypted")).toBe(true);
  });

  it("shows an answer as it is written in the encrypted room: encrypted edits, their relation in the clear", async () => {
    const from = hs.sent.length;
    const delivered = () => readDb(t.lilo).get("SELECT delivery FROM messages WHERE role = 'assistant' ORDER BY id DESC LIMIT 1") as { delivery: string };
    const answers = () => (readDb(t.lilo).get("SELECT count(*) AS n FROM messages WHERE role = 'assistant'") as { n: number }).n;
    const before = answers();
    await chris.sendText(ROOM, SLOW_ASK);
    await hs.waitFor(() => answers() > before && delivered().delivery === "delivered", 20_000);
    const sent = hs.sent.slice(from).filter((e) => e.roomId === ROOM);
    expect(sent.every((e) => e.type === "m.room.encrypted")).toBe(true);
    const read = await Promise.all(sent.map(async (e) => ({ eventId: e.eventId, sent: e, ...(await chris.read(e)) })));
    const messages = read.filter((r) => r.type === "m.room.message");
    const [first, ...edits] = messages;
    expect(edits.length).toBeGreaterThanOrEqual(2);
    for (const edit of edits) {
      expect(edit.sent.content["m.relates_to"]).toEqual({ rel_type: "m.replace", event_id: first!.eventId });
      expect(JSON.stringify(edit.sent.content)).not.toContain("Antwort");
    }
    expect(appliedEditsOf(messages).map((c) => c.body)).toEqual([SLOW_ANSWER]);
  });

  it("keeps its keys in the database, with no crypto-store file in the data folder", () => {
    expect(t.lilo.deviceKeys.names()).toEqual([STORE]);
    expect(t.lilo.deviceKeys.load(STORE)!.records.length).toBeGreaterThan(3);
    expect(existsSync(cryptoDir(t.lilo.config.dataDir))).toBe(false);
    expect(readdirSync(t.lilo.config.dataDir, { recursive: true }).filter((f) => /\.store$|crypto/.test(String(f)))).toEqual([]);
  });

  it("asks a yes/no question encrypted, taking an encrypted 👍 reaction as the answer", async () => {
    let from = hs.sent.length;
    await chris.sendText(ROOM, "Bitte merk dir das");
    const question = await nextMessage(from, ROOM, (b) => b.includes("Soll ich mir das merken?"));
    expect(question.sent.type).toBe("m.room.encrypted");
    // Lilo's own 👍/👎 hints are encrypted reactions too.
    const hintKeys = async () => {
      const read = await Promise.all(hs.sent.slice(from).map((e) => chris.read(e)));
      const onQuestion = read.filter((r) => r.type === "m.reaction" && (r.content["m.relates_to"] as { event_id?: string }).event_id === question.sent.eventId);
      return onQuestion.map((r) => (r.content["m.relates_to"] as { key?: string }).key);
    };
    await hs.waitFor(() => hs.sent.length >= from + 4);
    expect((await hintKeys()).sort()).toEqual(["👍", "👎"].sort());
    expect(hs.sent.slice(from).every((e) => e.type === "m.room.encrypted")).toBe(true);
    from = hs.sent.length;
    await chris.react(ROOM, question.sent.eventId, "👍");
    expect((await nextMessage(from)).content.body).toBe(`📌 Gemerkt: „${RULE}“`);
    expect(t.lilo.rules.list("chris").map((r) => r.text)).toEqual([RULE]);
  });

  it("takes a yes/no answer as encrypted text", async () => {
    let from = hs.sent.length;
    await chris.sendText(ROOM, "Und merk dir das auch");
    await nextMessage(from, ROOM, (b) => b.includes("Soll ich mir das merken?"));
    from = hs.sent.length;
    await chris.sendText(ROOM, "nein");
    expect(String((await nextMessage(from)).content.body)).not.toContain("Antwort auf: nein");
    expect(t.lilo.rules.list("chris")).toHaveLength(1);
  });

  it("gives an encrypted photo to the model as an image", async () => {
    const from = hs.sent.length;
    await chris.sendImage(ROOM, PNG, "image/png", "Mein Kuchen!");
    await nextMessage(from);
    expect(chats().at(-1)!.messages.at(-1)).toEqual({
      role: "user",
      content: [
        { type: "image", source: { type: "base64", media_type: "image/png", data: PNG.toString("base64") } },
        { type: "text", text: "[Foto] Mein Kuchen!" },
      ],
    });
  });

  it("sends pushes encrypted", async () => {
    const from = hs.sent.length;
    await chris.sendText(ROOM, "!push on");
    await nextMessage(from);
    const pushAt = hs.sent.length;
    expect(await t.lilo.push.send("chris", { kind: "greeting", text: "Guten Morgen!" })).toBe("sent");
    const push = await nextMessage(pushAt);
    expect(push.sent.type).toBe("m.room.encrypted");
    expect(push.content.body).toBe("Guten Morgen!");
  });

  it("answers a message whose room key arrives late, once it arrives", async () => {
    const chatsBefore = chats().length;
    const from = await sendWithKeyHeld("Schlüssel kommt später");
    // Lilo has read the sync with the message (and confirmed it) but cannot decrypt it yet.
    expect(chats().length).toBe(chatsBefore);
    await chris.releaseRoomKeys();
    expect((await nextMessage(from)).content.body).toBe("Antwort auf: Schlüssel kommt später");
  });

  it("still talks in an unencrypted room, in plain text", async () => {
    hs.invite(PLAIN, CHRIS);
    await hs.waitFor(() => hs.joined.has(PLAIN));
    const from = hs.sent.length;
    hs.sendText(PLAIN, CHRIS, "Ganz offen");
    const answer = await nextMessage(from, PLAIN);
    expect(answer.sent.type).toBe("m.room.message");
    expect(answer.content.body).toBe("Antwort auf: Ganz offen");
  });

  it("keeps its device across a restart: same keys, new messages decrypted, answered", async () => {
    await bot.stop();
    const before = hs.requests.length;
    bot = await startMatrix(t.lilo, logger, { storage });
    const from = hs.sent.length;
    await chris.sendText(ROOM, "Nach dem Neustart");
    expect((await nextMessage(from)).content.body).toBe("Antwort auf: Nach dem Neustart");
    // No new device keys: the restored device is the same one Chris's client knows.
    const deviceKeys = hs.requests
      .slice(before)
      .filter((r) => r.headers.authorization === "Bearer mx-token" && r.path.endsWith("/keys/upload") && JSON.stringify(r.body).includes('"device_keys"'));
    expect(deviceKeys).toEqual([]);
    expect(hs.sent.slice(from).some((e) => e.type === "m.room.message" && e.roomId === ROOM)).toBe(false);
  });

  it("keeps a message waiting for its key across a restart, answering it when the key comes", async () => {
    const from = await sendWithKeyHeld("Wartet über den Neustart");
    await bot.stop();
    bot = await startMatrix(t.lilo, logger, { storage });
    await chris.releaseRoomKeys();
    expect((await nextMessage(from)).content.body).toBe("Antwort auf: Wartet über den Neustart");
  });

  it("keeps its device through losing its keys, once a backup of the database is restored", async () => {
    await bot.stop();
    const backup = await t.lilo.backup.create();
    t.lilo.deviceKeys.remove(STORE);
    expect(await t.lilo.backup.restore(backup)).toEqual({ keyStoresKept: [], keyStoresRestored: [STORE] });
    const from = hs.sent.length;
    bot = await startMatrix(t.lilo, logger, { storage });
    await chris.sendText(ROOM, "Nach der Wiederherstellung");
    expect((await nextMessage(from)).content.body).toBe("Antwort auf: Nach der Wiederherstellung");
    // The same device: no notice of lost keys or of a new device.
    expect(hs.sent.slice(from).filter((e) => e.type === "m.room.message")).toEqual([]);
  });

  it("keeps its newer keys when an older backup of the database is restored", async () => {
    const backup = await t.lilo.backup.create();
    const older = t.lilo.deviceKeys.load(STORE);
    const from = hs.sent.length;
    await chris.sendText(ROOM, "Die Schlüssel gehen weiter");
    await nextMessage(from);
    await bot.stop();
    const now = t.lilo.deviceKeys.load(STORE);
    expect(now).not.toEqual(older);
    expect(await t.lilo.backup.restore(backup)).toEqual({ keyStoresKept: [STORE], keyStoresRestored: [] });
    expect(t.lilo.deviceKeys.load(STORE)).toEqual(now);
    bot = await startMatrix(t.lilo, logger, { storage });
  });

  it("moves the store file of an earlier version into the database, removes the file and keeps the device", async () => {
    await bot.stop();
    const dir = cryptoDir(t.lilo.config.dataDir);
    mkdirSync(dir, { mode: 0o700 });
    writeLegacyMatrixStore(t.lilo.deviceKeys, "FAKEDEVICE", join(dir, "FAKEDEVICE.store"));
    t.lilo.deviceKeys.remove(STORE);
    const before = hs.requests.length;
    const from = hs.sent.length;
    bot = await startMatrix(t.lilo, logger, { storage });
    expect(existsSync(dir)).toBe(false);
    expect(t.lilo.deviceKeys.names()).toEqual([STORE]);
    await chris.sendText(ROOM, "Nach dem Umzug der Schlüssel");
    expect((await nextMessage(from)).content.body).toBe("Antwort auf: Nach dem Umzug der Schlüssel");
    // The same device: no new device keys, no notice of lost keys.
    const uploads = hs.requests.slice(before).filter((r) => r.path.endsWith("/keys/upload") && JSON.stringify(r.body).includes('"device_keys"'));
    expect(uploads).toEqual([]);
    expect(hs.sent.slice(from).filter((e) => e.type === "m.room.message")).toEqual([]);
  });

  it("a lost key store is a new start told to the user in plain text, not a crash: plain rooms keep working", async () => {
    await bot.stop();
    t.lilo.deviceKeys.remove(STORE);
    const from = hs.sent.length;
    bot = await startMatrix(t.lilo, logger, { storage });
    const notice = await hs.waitForSent((e) => e.roomId === ROOM && e.type === "m.room.message", 10_000, from);
    expect(notice.content).toEqual({ msgtype: "m.notice", body: CRYPTO_TEXTS.de.lostStore("FAKEDEVICE") });
    expect(t.lilo.deviceKeys.names()).toEqual([STORE]);
    const plainFrom = hs.sent.length;
    hs.sendText(PLAIN, CHRIS, "Noch offen da?");
    expect((await nextMessage(plainFrom, PLAIN)).content.body).toBe("Antwort auf: Noch offen da?");
  });

  it("sets a damaged key store aside in the database, keeping it, and starts with new keys", async () => {
    await bot.stop();
    const damaged = t.lilo.deviceKeys.load(STORE)!;
    t.lilo.deviceKeys.save(STORE, "not a layout", []);
    const from = hs.sent.length;
    bot = await startMatrix(t.lilo, logger, { storage });
    const notice = await hs.waitForSent((e) => e.roomId === ROOM && e.type === "m.room.message", 10_000, from);
    expect(notice.content).toEqual({ msgtype: "m.notice", body: CRYPTO_TEXTS.de.lostStore("FAKEDEVICE") });
    const aside = t.lilo.deviceKeys.names().find((n) => n.startsWith(`${STORE}.damaged-`))!;
    expect(t.lilo.deviceKeys.load(aside)!.records).toEqual(damaged.records);
    expect(t.lilo.deviceKeys.names()).toContain(STORE);
    t.lilo.deviceKeys.remove(aside);
  });

  it("on a new device (a new access token) says so in each private room, encrypted, with the new fingerprint", async () => {
    await bot.stop();
    const token = hs.addClient(BOT, "NEWDEVICE");
    const next = makeTestLilo({
      ANTHROPIC_API_KEY: "sk-ant-test",
      ANTHROPIC_BASE_URL: model.baseURL,
      LILO_CHAT_MODEL: "anthropic:claude-test",
      MATRIX_HOMESERVER_URL: hs.url,
      MATRIX_ACCESS_TOKEN: token,
      MATRIX_ALLOWED_USERS: `${CHRIS}=chris`,
    });
    const from = hs.sent.length;
    const other = await startMatrix(next.lilo, logger, { storage });
    try {
      const notice = await nextMessage(from, ROOM, (b) => b.includes("NEWDEVICE"));
      expect(notice.sent.type).toBe("m.room.encrypted");
      const keys = hs.keys.devices.get(BOT)!.get("NEWDEVICE")!.keys as Record<string, string>;
      expect(notice.content.body).toBe(CRYPTO_TEXTS.de.newDevice("NEWDEVICE", keys["ed25519:NEWDEVICE"]!));
    } finally {
      await other.stop();
      await next.cleanup();
      bot = await startMatrix(t.lilo, logger, { storage });
    }
  });

  it("gives up a message whose key never comes after a day, asking the user to send it again", async () => {
    const from = await sendWithKeyHeld("Dieser Schlüssel kommt nie");
    clockShift = 25 * 3_600_000;
    hs.sendText(PLAIN, CHRIS, "Ein neuer Sync"); // any sync tries the waiting messages again
    const notice = await nextMessage(from, ROOM);
    expect(notice.sent.type).toBe("m.room.encrypted");
    expect(notice.content.body).toBe(CRYPTO_TEXTS.de.undecryptable);
    await chris.releaseRoomKeys(); // for the world after this test; the message itself was given up
    clockShift = 0;
  });
});
