import { afterEach, describe, expect, it, vi } from "vitest";
import type { Logger } from "../../core/index.ts";
import { startFakeTranscription, type FakeTranscription } from "../fakes/fake-transcription.ts";
import { CHRIS, gate, messagesIn, startTelegramHarness, waitForMessages, type TelegramHarness } from "./telegram-harness.ts";
import { readDb } from "../helpers/read-db.ts";

/** Every log line, to check that nothing goes unlogged and no token is written. */
function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const write = (lvl: string) => (msg: string, data?: Record<string, unknown>) => void lines.push(`${lvl} ${msg} ${JSON.stringify(data ?? {})}`);
  return { lines, debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error") };
}

const GROUP = -4242;
const JPEG = "\xff\xd8\xffFAKE-JPEG-BYTES";

describe("Telegram adapter: photos, voice notes and other media", () => {
  let h: TelegramHarness;
  let stt: FakeTranscription | undefined;
  let log: ReturnType<typeof recordingLogger>;
  const start = async (env: Record<string, string> = {}) => {
    log = recordingLogger();
    h = await startTelegramHarness({ env, logger: log });
  };
  const rows = () => readDb(h.lilo).all("SELECT role, text FROM messages ORDER BY id") as { role: string; text: string }[];
  afterEach(async () => {
    await h.stop();
    await stt?.close();
    stt = undefined;
  });

  it("sends a photo with its caption to the model as image + text, storing only the caption", async () => {
    await start();
    h.answer = () => "Was für eine süße Katze!";
    const small = h.tg.addFile("tiny", "jpg");
    const large = h.tg.addFile(JPEG, "jpg");
    h.tg.pushMedia({
      fromId: CHRIS,
      chatId: CHRIS,
      fields: {
        caption: "Schau mal, meine Katze Mia!",
        photo: [
          { ...small, width: 90, height: 90 },
          { ...large, width: 800, height: 800 },
        ],
      },
    });
    const [answer] = await waitForMessages(h.tg, CHRIS);
    expect(answer!.params.text).toBe("Was für eine süße Katze!");

    const last = h.chatRequests()[0]!.messages.at(-1) as unknown as { role: string; content: unknown[] };
    expect(last.role).toBe("user");
    expect(last.content).toEqual([
      { type: "image", source: { type: "base64", media_type: "image/jpeg", data: Buffer.from(JPEG).toString("base64") } },
      { type: "text", text: "[Foto] Schau mal, meine Katze Mia!" },
    ]);
    // The largest size was fetched, through the file URL, and the picture is not in the database.
    expect(h.tg.downloads).toEqual([`media/${large.file_id}.jpg`]);
    expect(rows()).toEqual([
      { role: "user", text: "[Foto] Schau mal, meine Katze Mia!" },
      { role: "assistant", text: "Was für eine süße Katze!" },
    ]);
    expect(log.lines.join("\n")).not.toContain(h.tg.token);
  });

  it("stores a photo's caption as waiting for its answer before the model is asked (the inbox), the picture still going along", async () => {
    await start();
    const hold = gate();
    h.answer = async () => (await hold.promise, "Hübsch!");
    const photo = h.tg.addFile(JPEG, "jpg");
    h.tg.pushMedia({ fromId: CHRIS, chatId: CHRIS, fields: { caption: "Sonnenuntergang", photo: [{ ...photo, width: 10, height: 10 }] } });
    await vi.waitFor(() => expect(h.chatRequests()).toHaveLength(1), { timeout: 5_000, interval: 10 });
    expect(JSON.stringify(h.chatRequests()[0]!.messages.at(-1))).toContain('"type":"image"');
    // The model is still thinking, and the message is already stored as waiting for its answer.
    expect(readDb(h.lilo).all("SELECT text, reply_state AS state FROM messages")).toEqual([{ text: "[Foto] Sonnenuntergang", state: "pending" }]);
    hold.open();
    await waitForMessages(h.tg, CHRIS);
    expect(rows()).toHaveLength(2);
  });

  it("answers the caption alone when the model takes no images, telling the user she cannot see pictures yet", async () => {
    await start({ LILO_VISION: "none" });
    h.answer = () => "Mia ist ein schöner Name!";
    const photo = h.tg.addFile(JPEG, "jpg");
    h.tg.pushMedia({ fromId: CHRIS, chatId: CHRIS, fields: { caption: "Meine Katze heißt Mia", photo: [{ ...photo, width: 800, height: 800 }] } });
    const [answer] = await waitForMessages(h.tg, CHRIS);
    expect(answer!.params.text).toBe("(Bilder kann ich leider noch nicht sehen – ich habe nur deinen Text dazu gelesen.)\n\nMia ist ein schöner Name!");
    const request = h.chatRequests()[0]!;
    expect(request.messages.at(-1)).toEqual({ role: "user", content: "[Foto] Meine Katze heißt Mia" });
    expect(request.system).toContain("Foto geschickt, das du nicht sehen kannst");
    expect(h.tg.downloads).toEqual([]);
  });

  it("answers a voice note by its transcript from the transcription endpoint", async () => {
    stt = await startFakeTranscription({ text: "Ich war heute im Zoo." });
    await start({ LILO_TRANSCRIBE_BASE_URL: stt.baseURL, LILO_TRANSCRIBE_API_KEY: "sk-stt-test" });
    h.answer = () => "Wie schön! Welche Tiere hast du gesehen?";
    const voice = h.tg.addFile("OGG-OPUS-BYTES", "oga");
    h.tg.pushMedia({ fromId: CHRIS, chatId: CHRIS, fields: { voice: { ...voice, duration: 3, mime_type: "audio/ogg" } } });
    const [answer] = await waitForMessages(h.tg, CHRIS);
    expect(answer!.params.text).toBe("Wie schön! Welche Tiere hast du gesehen?");
    expect(stt.calls).toEqual([{ model: "whisper-1", fileName: "voice.ogg", content: "OGG-OPUS-BYTES", authorization: "Bearer sk-stt-test" }]);
    expect(h.chatRequests()[0]!.messages.at(-1)).toEqual({ role: "user", content: "Ich war heute im Zoo." });
    expect(rows()[0]).toEqual({ role: "user", text: "Ich war heute im Zoo." });
  });

  it("answers a voice note with a short reply when no transcription endpoint is set or it fails", async () => {
    stt = await startFakeTranscription({ status: 500 });
    await start({ LILO_TRANSCRIBE_BASE_URL: stt.baseURL });
    const voice = h.tg.addFile("OGG", "oga");
    h.tg.pushMedia({ fromId: CHRIS, chatId: CHRIS, fields: { voice: { ...voice, duration: 1 } } });
    const [reply] = await waitForMessages(h.tg, CHRIS);
    expect(reply!.params.text).toContain("Sprachnachricht konnte ich gerade nicht verstehen");
    expect(h.chatRequests()).toEqual([]);
    // Stored on arrival (the durable inbox), then settled with its plain label: no turn answers it, not after a restart either.
    await vi.waitFor(
      () =>
        expect(readDb(h.lilo).all("SELECT role, text, reply_state AS state FROM messages")).toEqual([
          { role: "user", text: "[Sprachnachricht]", state: "acknowledged" },
        ]),
      { timeout: 5_000, interval: 10 },
    );
    expect(h.lilo.inbox.unfinished("telegram")).toEqual([]);
    expect(log.lines.some((l) => l.startsWith("warn voice note not transcribed"))).toBe(true);
  });

  it("answers a sticker, a location or a file with a logged short reply, sending nothing to the model", async () => {
    await start();
    h.tg.pushMedia({
      fromId: CHRIS,
      chatId: CHRIS,
      fields: {
        sticker: { file_id: "st1", file_unique_id: "ust1", type: "regular", width: 512, height: 512, is_animated: false, is_video: false, emoji: "😺" },
      },
    });
    h.tg.pushMedia({ fromId: CHRIS, chatId: CHRIS, fields: { location: { latitude: 52.5, longitude: 13.4 } } });
    h.tg.pushMedia({ fromId: CHRIS, chatId: CHRIS, fields: { document: { file_id: "d1", file_unique_id: "ud1", file_name: "a.pdf" } } });
    const replies = await waitForMessages(h.tg, CHRIS, 3);
    expect(replies.map((c) => c.params.text)).toEqual([
      "😺 Sticker kann ich mir noch nicht ansehen – schreib mir gern, was du meinst.",
      "Standorte kann ich noch nicht öffnen. Schreib mir gern, worum es geht.",
      "Dateien kann ich noch nicht öffnen. Schreib mir gern, worum es geht.",
    ]);
    expect(h.anthropic.requests).toEqual([]);
    expect(rows()).toEqual([]);
    expect(log.lines.filter((l) => l.includes("short reply"))).toHaveLength(3);
  });

  it("refuses a photo in a group like any group message: nothing downloaded or stored", async () => {
    await start();
    const photo = h.tg.addFile(JPEG, "jpg");
    h.tg.pushMedia({ fromId: CHRIS, chatId: GROUP, fields: { caption: "Gruppenfoto", photo: [{ ...photo, width: 10, height: 10 }] } });
    const [refusal] = await waitForMessages(h.tg, GROUP);
    expect(refusal!.params.text).toBe("Ich spreche nur in privaten Chats – schreib mir bitte direkt.");
    expect(h.tg.downloads).toEqual([]);
    expect(rows()).toEqual([]);
    expect(messagesIn(h.tg, CHRIS)).toEqual([]);
  });
});
