/**
 * Voice replies on Matrix with the real adapter (matrix-bot-sdk and the
 * Matrix Rust crypto) against the fake homeserver and a fake speech
 * endpoint that answers with a real tiny OGG/Opus file: an unencrypted room,
 * and an encrypted one read by the user's own crypto device.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Attachment } from "@matrix-org/matrix-sdk-crypto-wasm";
import { MemoryStorageProvider } from "matrix-bot-sdk";
import { silentLogger } from "../../core/index.ts";
import { startMatrix, type RunningMatrix } from "../../adapters/matrix/bot.ts";
import { decryptAttachment, type EncryptedFile } from "../../adapters/matrix/crypto/attachments.ts";
import { startFakeMatrix, type FakeMatrix, type SentEvent } from "../fakes/fake-matrix.ts";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { startFakeTranscription, type FakeTranscription } from "../fakes/fake-transcription.ts";
import { startFakeSpeech, TINY_OGG_OPUS, type FakeSpeech } from "../fakes/fake-speech.ts";
import { CryptoTestClient } from "../fakes/matrix-crypto-client.ts";
import { isExtraction, makeTestLilo, NO_EXTRACTION, type TestLilo } from "../helpers/test-lilo.ts";

const BOT = "@lilo:fake.server";
const CHRIS = "@chris:fake.server";
const PLAIN = "!plain:fake.server";
const SECRET = "!secret:fake.server";

describe("Matrix adapter: voice replies", () => {
  let hs: FakeMatrix;
  let model: FakeAnthropic;
  let stt: FakeTranscription;
  let tts: FakeSpeech;
  let t: TestLilo;
  let bot: RunningMatrix;
  let chris: CryptoTestClient;

  beforeAll(async () => {
    hs = await startFakeMatrix({ botUserId: BOT, accessToken: "mx-token" });
    model = await startFakeAnthropic();
    stt = await startFakeTranscription({ text: "Erzähl mir was." });
    tts = await startFakeSpeech();
    model.replyAlways((body) => (isExtraction(body.system) ? NO_EXTRACTION : "Es war einmal ein Igel."));
    t = makeTestLilo({
      ANTHROPIC_API_KEY: "sk-ant-test",
      ANTHROPIC_BASE_URL: model.baseURL,
      LILO_CHAT_MODEL: "anthropic:claude-test",
      MATRIX_HOMESERVER_URL: hs.url,
      MATRIX_ACCESS_TOKEN: "mx-token",
      MATRIX_ALLOWED_USERS: `${CHRIS}=chris`,
      LILO_TRANSCRIBE_BASE_URL: stt.baseURL,
      LILO_SPEECH_BASE_URL: tts.baseURL,
    });
    bot = await startMatrix(t.lilo, silentLogger, { storage: new MemoryStorageProvider() });
    chris = await CryptoTestClient.create(hs, CHRIS);
    hs.invite(PLAIN, CHRIS);
    hs.invite(SECRET, CHRIS);
    hs.encryptRoom(SECRET, CHRIS);
    await hs.waitFor(() => hs.joined.has(PLAIN) && hs.joined.has(SECRET));
  }, 60_000);

  afterAll(async () => {
    chris?.close();
    await bot?.stop();
    await hs?.close();
    await t?.cleanup();
    await model?.close();
    await stt?.close();
    await tts?.close();
  });

  /** Lilo's messages in a room after index `from`, as Chris's client reads them, once `count` are there. */
  const readFrom = async (room: string, from: number, count: number): Promise<{ sent: SentEvent; content: Record<string, unknown> }[]> => {
    await hs.waitFor(() => hs.sent.slice(from).filter((e) => e.roomId === room && e.type !== "m.reaction").length >= count, 10_000);
    const sent = hs.sent.slice(from).filter((e) => e.roomId === room && e.type !== "m.reaction");
    return Promise.all(sent.map(async (s) => ({ sent: s, content: (await chris.read(s)).content })));
  };

  it("answers an m.audio voice message with the text and then a voice message Element shows as one, the file OGG/Opus", async () => {
    const from = hs.sent.length;
    hs.sendEvent(PLAIN, CHRIS, "m.room.message", { msgtype: "m.audio", body: "voice", url: hs.upload("OGG-IN", "audio/ogg"), info: { mimetype: "audio/ogg" } });
    const [text, voice] = await readFrom(PLAIN, from, 2);
    expect(text!.content).toMatchObject({ msgtype: "m.text", body: "Es war einmal ein Igel." });
    expect(voice!.content).toMatchObject({
      msgtype: "m.audio",
      info: { mimetype: "audio/ogg", size: TINY_OGG_OPUS.length, duration: 100 },
      "org.matrix.msc3245.voice": {},
      "org.matrix.msc1767.audio": { duration: 100 },
    });
    const file = hs.uploaded(String(voice!.content.url))!;
    expect(file.contentType).toBe("audio/ogg");
    expect(file.bytes.subarray(0, 4).toString("latin1")).toBe("OggS");
    expect(file.bytes.includes("OpusHead")).toBe(true);
  });

  it("answers a text message with text only, and with its voice too after !voice on", async () => {
    let from = hs.sent.length;
    hs.sendText(PLAIN, CHRIS, "Hallo");
    await readFrom(PLAIN, from, 1);
    await t.lilo.idle();
    expect(hs.sent.slice(from).filter((e) => e.content.msgtype === "m.audio")).toEqual([]);
    hs.sendText(PLAIN, CHRIS, "!voice on");
    await readFrom(PLAIN, from, 2);
    from = hs.sent.length;
    hs.sendText(PLAIN, CHRIS, "Und jetzt?");
    const [, voice] = await readFrom(PLAIN, from, 2);
    expect(voice!.content.msgtype).toBe("m.audio");
  });

  it("sends the voice message encrypted in an encrypted room: the event and the file, which the user's key opens to the OGG/Opus", async () => {
    const audio = Attachment.encrypt(new TextEncoder().encode("OGG-IN"));
    const info = JSON.parse(audio.mediaEncryptionInfo!) as Record<string, unknown>;
    const from = hs.sent.length;
    await chris.sendEncrypted(SECRET, "m.room.message", {
      msgtype: "m.audio",
      body: "voice",
      info: { mimetype: "audio/ogg" },
      file: { ...info, url: hs.upload(audio.encryptedData, "application/octet-stream") },
    });
    const [text, voice] = await readFrom(SECRET, from, 2);
    expect(text!.sent.type).toBe("m.room.encrypted");
    expect(voice!.sent.type).toBe("m.room.encrypted");
    expect(voice!.content).toMatchObject({ msgtype: "m.audio", "org.matrix.msc3245.voice": {} });
    expect(voice!.content.url).toBeUndefined();
    const file = voice!.content.file as EncryptedFile;
    const stored = hs.uploaded(file.url)!;
    expect(stored.bytes.includes("OpusHead")).toBe(false);
    expect(decryptAttachment(file, stored.bytes).equals(TINY_OGG_OPUS)).toBe(true);
  });
});
