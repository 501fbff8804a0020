import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MemoryStorageProvider } from "matrix-bot-sdk";
import { silentLogger } from "../../core/index.ts";
import { startMatrix, type RunningMatrix } from "../../adapters/matrix/bot.ts";
import { startFakeMatrix, type FakeMatrix, type SentEvent } from "../fakes/fake-matrix.ts";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { startFakeTranscription, type FakeTranscription } from "../fakes/fake-transcription.ts";
import { isExtraction, makeTestLilo, NO_EXTRACTION, type TestLilo } from "../helpers/test-lilo.ts";
import { readDb } from "../helpers/read-db.ts";

const BOT = "@lilo:fake.server";
const CHRIS = "@chris:fake.server";
const ROOM = "!chris:fake.server";
const PNG = "\x89PNG-FAKE-BYTES";

describe("Matrix adapter: images, audio and other media", () => {
  let hs: FakeMatrix;
  let model: FakeAnthropic;
  let stt: FakeTranscription;
  let t: TestLilo;
  let bot: RunningMatrix;

  beforeEach(async () => {
    hs = await startFakeMatrix({ botUserId: BOT, accessToken: "mx-token" });
    model = await startFakeAnthropic();
    stt = await startFakeTranscription({ text: "Ich habe heute Kuchen gebacken." });
    model.replyAlways((body) => (isExtraction(body.system) ? NO_EXTRACTION : "Schön!"));
    t = makeTestLilo({
      ANTHROPIC_API_KEY: "sk-ant-test",
      ANTHROPIC_BASE_URL: model.baseURL,
      LILO_CHAT_MODEL: "anthropic:claude-test",
      MATRIX_HOMESERVER_URL: hs.url,
      MATRIX_ACCESS_TOKEN: "mx-token",
      MATRIX_ALLOWED_USERS: `${CHRIS}=chris`,
      LILO_TRANSCRIBE_BASE_URL: stt.baseURL,
      LILO_TRANSCRIBE_MODEL: "whisper-large-v3",
    });
    bot = await startMatrix(t.lilo, silentLogger, { storage: new MemoryStorageProvider() });
    hs.invite(ROOM, CHRIS);
    await hs.waitFor(() => hs.joined.has(ROOM));
  });

  afterEach(async () => {
    await bot.stop();
    await hs.close();
    await t.cleanup();
    await model.close();
    await stt.close();
  });

  const chats = () => model.requests.filter((r) => !isExtraction(r.system));
  const rows = () => readDb(t.lilo).all("SELECT role, text FROM messages ORDER BY id");
  const nextMessage = (from: number): Promise<SentEvent> => hs.waitForSent((e) => e.roomId === ROOM && e.type === "m.room.message", 5_000, from);

  it("sends an m.image with its caption to the model as image + text, downloaded through the media API", async () => {
    const mxc = hs.upload(PNG, "image/png");
    const from = hs.sent.length;
    hs.sendEvent(ROOM, CHRIS, "m.room.message", {
      msgtype: "m.image",
      body: "Mein Kuchen!",
      filename: "kuchen.png",
      url: mxc,
      info: { mimetype: "image/png", size: PNG.length },
    });
    expect((await nextMessage(from)).content.body).toBe("Schön!");
    expect(chats()[0]!.messages.at(-1)).toEqual({
      role: "user",
      content: [
        { type: "image", source: { type: "base64", media_type: "image/png", data: Buffer.from(PNG).toString("base64") } },
        { type: "text", text: "[Foto] Mein Kuchen!" },
      ],
    });
    expect(hs.downloads).toEqual(["media1"]);
    expect(rows()).toEqual([
      { role: "user", text: "[Foto] Mein Kuchen!" },
      { role: "assistant", text: "Schön!" },
    ]);
  });

  it("answers an m.audio message by its transcript", async () => {
    const mxc = hs.upload("OGG-BYTES", "audio/ogg");
    const from = hs.sent.length;
    hs.sendEvent(ROOM, CHRIS, "m.room.message", { msgtype: "m.audio", body: "Sprachnachricht", url: mxc, info: { mimetype: "audio/ogg" } });
    expect((await nextMessage(from)).content.body).toBe("Schön!");
    expect(stt.calls).toMatchObject([{ model: "whisper-large-v3", fileName: "voice.ogg", content: "OGG-BYTES" }]);
    expect(chats()[0]!.messages.at(-1)).toEqual({ role: "user", content: "Ich habe heute Kuchen gebacken." });
  });

  it("answers a file, a location or a sticker with a short reply, sending nothing to the model", async () => {
    let from = hs.sent.length;
    hs.sendEvent(ROOM, CHRIS, "m.room.message", { msgtype: "m.file", body: "steuer.pdf", url: hs.upload("PDF", "application/pdf") });
    expect((await nextMessage(from)).content.body).toBe("Dateien kann ich noch nicht öffnen. Schreib mir gern, worum es geht.");
    from = hs.sent.length;
    hs.sendEvent(ROOM, CHRIS, "m.room.message", { msgtype: "m.location", body: "Berlin", geo_uri: "geo:52.5,13.4" });
    expect((await nextMessage(from)).content.body).toBe("Standorte kann ich noch nicht öffnen. Schreib mir gern, worum es geht.");
    from = hs.sent.length;
    hs.sendEvent(ROOM, CHRIS, "m.sticker", { body: "Katze", url: hs.upload("PNG", "image/png"), info: {} });
    expect((await nextMessage(from)).content.body).toContain("Sticker kann ich mir noch nicht ansehen");
    expect(model.requests).toEqual([]);
    expect(rows()).toEqual([]);
    expect(hs.downloads).toEqual([]);
  });
});
