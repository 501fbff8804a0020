import { afterEach, describe, expect, it, vi } from "vitest";
import type { Logger } from "../../core/index.ts";
import { startFakeTranscription, type FakeTranscription } from "../fakes/fake-transcription.ts";
import { startFakeSpeech, TINY_OGG_OPUS, type FakeSpeech } from "../fakes/fake-speech.ts";
import { CHRIS, messagesIn, startTelegramHarness, waitForMessages, type TelegramHarness } from "./telegram-harness.ts";
import { readDb } from "../helpers/read-db.ts";

/** Every log line, to find the one a failed voice reply leaves. */
function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const write = (lvl: string) => (msg: string, data?: Record<string, unknown>) => void lines.push(`${lvl} ${msg} ${JSON.stringify(data ?? {})}`);
  return { lines, debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error") };
}

describe("Telegram adapter: voice replies", () => {
  let h: TelegramHarness;
  let stt: FakeTranscription;
  let tts: FakeSpeech;
  let log: ReturnType<typeof recordingLogger>;
  const start = async (env: Record<string, string> = {}, speech?: FakeSpeech["answer"]) => {
    stt = await startFakeTranscription({ text: "Wie war dein Tag?" });
    tts = await startFakeSpeech(speech);
    log = recordingLogger();
    h = await startTelegramHarness({
      env: { LILO_TRANSCRIBE_BASE_URL: stt.baseURL, LILO_SPEECH_BASE_URL: tts.baseURL, LILO_SPEECH_API_KEY: "sk-tts-test", ...env },
      logger: log,
      ports: { logger: log },
    });
  };
  const sendVoiceNote = () => {
    const voice = h.tg.addFile("OGG-OPUS-BYTES", "oga");
    h.tg.pushMedia({ fromId: CHRIS, chatId: CHRIS, fields: { voice: { ...voice, duration: 2, mime_type: "audio/ogg" } } });
  };
  const voices = () => h.tg.calls("sendVoice", CHRIS);
  const deliveryStates = () => readDb(h.lilo).all("SELECT delivery FROM messages WHERE role = 'assistant'") as { delivery: string }[];
  afterEach(async () => {
    await h.stop();
    await stt.close();
    await tts.close();
  });

  it("answers a voice note with the text and then one voice note: OGG/Opus from the speech endpoint, 'recording voice' while it is made", async () => {
    await start();
    h.answer = () => "Schön war er! Ich war im Park.";
    sendVoiceNote();
    const [text] = await waitForMessages(h.tg, CHRIS);
    expect(text!.params.text).toBe("Schön war er! Ich war im Park.");
    await h.tg.waitFor(() => voices().length > 0);
    expect(tts.calls).toEqual([
      { model: "tts-1", voice: "nova", input: "Schön war er! Ich war im Park.", response_format: "opus", authorization: "Bearer sk-tts-test" },
    ]);
    expect(h.tg.uploads).toHaveLength(1);
    const upload = h.tg.uploads[0]!;
    expect(upload.bytes.subarray(0, 4).toString("latin1")).toBe("OggS");
    expect(upload.bytes.includes("OpusHead")).toBe(true);
    expect(upload.bytes.equals(TINY_OGG_OPUS)).toBe(true);
    expect(h.tg.calls("sendChatAction", CHRIS).map((c) => c.params.action)).toContain("record_voice");
    // The text went first, then the voice note.
    const order = h.tg.sent.filter((c) => c.method === "sendMessage" || c.method === "sendVoice").map((c) => c.method);
    expect(order).toEqual(["sendMessage", "sendVoice"]);
  });

  it("answers a text message with text only", async () => {
    await start();
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "Hallo Lilo" });
    await waitForMessages(h.tg, CHRIS);
    await h.lilo.idle();
    expect(voices()).toEqual([]);
    expect(tts.calls).toEqual([]);
  });

  it("speaks to text messages too after /voice on, and no more after /voice off", async () => {
    await start();
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "/voice on" });
    const [on] = await waitForMessages(h.tg, CHRIS);
    expect(on!.params.text).toBe("Ab jetzt antworte ich dir auch mit Sprachnachrichten.");
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "Hallo Lilo" });
    await h.tg.waitFor(() => voices().length === 1);
    expect(tts.calls.map((c) => c.input)).toEqual(["Hallo!"]);
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "/voice off" });
    sendVoiceNote();
    await waitForMessages(h.tg, CHRIS, 4);
    await h.lilo.idle();
    expect(voices()).toHaveLength(1);
  });

  it("reads out the answer's visible words only: no marker, no Markdown sign, no web address", async () => {
    await start();
    h.answer = () => "[EMOTION: happy] Das klingt **richtig** schön! Mehr unter https://example.org/park [IMPORTANT: Christian mag Parks]";
    sendVoiceNote();
    await h.tg.waitFor(() => voices().length > 0);
    expect(tts.calls.map((c) => c.input)).toEqual(["Das klingt richtig schön! Mehr unter"]);
  });

  it("keeps the text and loses nothing when the speech endpoint fails: no voice note, the answer delivered, the failure logged", async () => {
    await start({ LILO_SPEECH_MAX_RETRIES: "0" }, { status: 500 });
    h.answer = () => "Der Text kommt trotzdem.";
    sendVoiceNote();
    const [text] = await waitForMessages(h.tg, CHRIS);
    expect(text!.params.text).toBe("Der Text kommt trotzdem.");
    await vi.waitFor(() => expect(log.lines.join("\n")).toContain("voice reply not made; the answer stays text"), { timeout: 5_000 });
    expect(voices()).toEqual([]);
    expect(deliveryStates()).toEqual([{ delivery: "delivered" }]);
    expect(readDb(h.lilo).all("SELECT purpose FROM usage_ledger WHERE purpose = 'speech'")).toEqual([]);
  });

  it("sends the text at once while the speech endpoint hangs, and gives the voice note up after LILO_SPEECH_TIMEOUT_MS", async () => {
    await start({ LILO_SPEECH_MAX_RETRIES: "0", LILO_SPEECH_TIMEOUT_MS: "400" }, { hangMs: 3_000 });
    h.answer = () => "Sofort da.";
    sendVoiceNote();
    // While the speech endpoint has not answered yet, the text is out and recorded as delivered.
    await vi.waitFor(() => expect(tts.calls).toHaveLength(1), { timeout: 5_000 });
    expect(messagesIn(h.tg, CHRIS).map((c) => c.params.text)).toEqual(["Sofort da."]);
    expect(deliveryStates()).toEqual([{ delivery: "delivered" }]);
    await vi.waitFor(() => expect(log.lines.join("\n")).toContain("voice reply not made; the answer stays text"), { timeout: 5_000 });
    expect(voices()).toEqual([]);
  });

  it("writes each speech call into the usage ledger as role speech: the characters read out, priced from the price table", async () => {
    await start();
    h.answer = () => "Zwölf Zeichen";
    sendVoiceNote();
    await h.tg.waitFor(() => voices().length > 0);
    const rows = readDb(h.lilo).all(
      "SELECT provider, model, purpose, user_id AS user, input_tokens AS chars, output_tokens AS output, cost FROM usage_ledger WHERE purpose = 'speech'",
    );
    expect(rows).toEqual([{ provider: "speech", model: "tts-1", purpose: "speech", user: "chris", chars: 13, output: 0, cost: (13 * 15) / 1_000_000 }]);
    expect(h.lilo.usage.summary().groups.map((g) => g.key)).toContain("speech");
  });

  it("answers in text only once the budget is spent, and says so once a day", async () => {
    // Any chat call spends the day's budget; the fallback model (the same one) keeps the chat going.
    await start({ LILO_BUDGET_DAY: "1 tokens", LILO_BUDGET_FALLBACK_MODEL: "anthropic:claude-test" });
    h.answer = () => "Gern!";
    sendVoiceNote();
    await waitForMessages(h.tg, CHRIS, 2);
    sendVoiceNote();
    await waitForMessages(h.tg, CHRIS, 3);
    await h.lilo.idle();
    const texts = messagesIn(h.tg, CHRIS).map((c) => String(c.params.text));
    expect(texts.filter((t) => t.includes("Meine Stimme ruht"))).toHaveLength(1);
    expect(voices()).toEqual([]);
    expect(tts.calls).toEqual([]);
  });
});
