import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeTranscription, type FakeTranscription } from "../fakes/fake-transcription.ts";
import { startFakeSpeech, type FakeSpeech } from "../fakes/fake-speech.ts";
import { CrashWorld, TG_CHAT, until, type Proc } from "./world.ts";

/**
 * Voice replies from outside, through the real bot process: fake Telegram
 * logs what the bot uploads, a fake speech endpoint answers with a real
 * OGG/Opus file, and `lilo usage --json` reads the ledger the bot wrote.
 */
describe("voice replies through the real process", () => {
  let w: CrashWorld;
  let stt: FakeTranscription;
  let tts: FakeSpeech;
  let bot: Proc | undefined;
  const tgTexts = () => w.tg.calls("sendMessage", TG_CHAT).map((c) => String(c.params.text));
  const pushVoiceNote = () => {
    const voice = w.tg.addFile("OGG-OPUS-BYTES", "oga");
    w.tg.pushMedia({ fromId: TG_CHAT, chatId: TG_CHAT, fields: { voice: { ...voice, duration: 2, mime_type: "audio/ogg" } } });
  };

  beforeAll(async () => {
    stt = await startFakeTranscription({ text: "Sprachnachricht x401" });
    tts = await startFakeSpeech();
    w = await CrashWorld.create();
    w.extraEnv = {
      LILO_TRANSCRIBE_BASE_URL: stt.baseURL,
      LILO_SPEECH_BASE_URL: tts.baseURL,
      LILO_SPEECH_API_KEY: "sk-tts-test",
      MATRIX_HOMESERVER_URL: "",
      MATRIX_ACCESS_TOKEN: "",
    };
    bot = await w.startBot(/telegram adapter running/);
  }, 60_000);
  afterAll(async () => {
    if (bot) await w.kill(bot);
    await w?.close();
    await stt?.close();
    await tts?.close();
  });

  it("answers a voice note with its text and one sendVoice of OGG/Opus, counted by lilo usage; a text message gets no voice", async () => {
    pushVoiceNote();
    await until(
      () => w.tg.uploads.length === 1 && tgTexts().includes("Antwort x401"),
      15_000,
      () => bot!.output(),
    );
    const [upload] = w.tg.uploads;
    expect(upload!.method).toBe("sendVoice");
    expect(upload!.bytes.subarray(0, 4).toString("latin1")).toBe("OggS");
    expect(upload!.bytes.includes("OpusHead")).toBe(true);
    expect(tts.calls.map((c) => c.input)).toEqual(["Antwort x401"]);

    w.tg.pushMessage({ fromId: TG_CHAT, chatId: TG_CHAT, text: "Nachricht x402" });
    await until(
      () => tgTexts().includes("Antwort x402"),
      15_000,
      () => bot!.output(),
    );

    const cli = w.cli(["usage", "--json"]);
    expect(await cli.exited).toBe(0);
    const usage = JSON.parse(cli.output().slice(cli.output().indexOf("{"))) as { groups: { key: string; calls: number; inputTokens: number }[] };
    expect(usage.groups.find((g) => g.key === "speech")).toMatchObject({ calls: 1, inputTokens: "Antwort x401".length });
    expect(w.tg.calls("sendVoice", TG_CHAT)).toHaveLength(1);
    expect(tts.calls).toHaveLength(1);
  }, 60_000);

  it("keeps the answer's delivery right under kill -9 while the voice note is being made: delivered once, not sent again", async () => {
    tts.answer = { hangMs: 30_000 };
    stt.answer = { text: "Sprachnachricht x403" };
    pushVoiceNote();
    await until(
      () => tgTexts().includes("Antwort x403") && tts.calls.length === 2,
      15_000,
      () => bot!.output(),
    );
    await w.kill(bot!);
    bot = undefined;
    expect(w.query(`SELECT delivery FROM messages WHERE role = 'assistant' AND text = 'Antwort x403'`)).toEqual([{ delivery: "delivered" }]);
    // The restart finishes open messages before it reports the adapter running: nothing of x403 was open.
    bot = await w.startBot(/telegram adapter running/);
    expect(tgTexts().filter((t) => t === "Antwort x403")).toHaveLength(1);
  }, 60_000);
});
