import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeTranscription, type FakeTranscription } from "../fakes/fake-transcription.ts";
import { CrashWorld, ROOM, ANNA, TG_CHAT, until, type Proc } from "./world.ts";

const JPEG = "\xff\xd8\xffFAKE-JPEG";

/**
 * A Telegram voice note and a Matrix photo that arrive behind a slow turn,
 * with the real bot killed (SIGKILL) once both platforms consider them
 * delivered: they were stored on arrival (the voice note as its placeholder
 * with the file id, the photo as its caption), and after the restart the
 * voice note is fetched again, transcribed and answered, the photo's caption
 * answered — each once.
 */
describe("nothing lost: voice notes and Matrix media stored on arrival", () => {
  let w: CrashWorld;
  let stt: FakeTranscription;
  let bot: Proc | undefined;
  const chatRequestsFor = (token: string) => w.llm.requests.filter((r) => String(r.messages.at(-1)?.content ?? "").includes(token));
  // In arrival order per platform (the two platforms interleave as their syncs come in).
  const userRows = () =>
    w.query<{ text: string; state: string; transport: string }>(
      `SELECT text, reply_state AS state, transport FROM messages WHERE role = 'user' ORDER BY transport DESC, id`,
    );

  beforeAll(async () => {
    stt = await startFakeTranscription({ text: "Sprachnachricht x301 vom Markt" });
    w = await CrashWorld.create();
    w.extraEnv = { LILO_TRANSCRIBE_BASE_URL: stt.baseURL, LILO_TRANSCRIBE_API_KEY: "sk-stt-test" };
    bot = await w.startBot();
    w.hs.invite(ROOM, ANNA);
    await w.hs.waitFor(() => w.hs.joined.has(ROOM), 10_000);
  }, 60_000);
  afterAll(async () => {
    if (bot) await w.kill(bot);
    await w?.close();
    await stt?.close();
  });

  it("a Telegram voice note or a Matrix photo queued behind a model call survives kill -9: stored before the platform confirmed it, answered after restart", async () => {
    w.hold("x300");
    w.hold("x310");
    w.tg.pushMessage({ fromId: TG_CHAT, chatId: TG_CHAT, text: "Nachricht x300" });
    w.hs.sendText(ROOM, ANNA, "Nachricht x310");
    await until(() => chatRequestsFor("x300").length > 0 && chatRequestsFor("x310").length > 0, 10_000);
    const voice = w.tg.addFile("OGG-OPUS-BYTES", "oga");
    w.tg.pushMedia({ fromId: TG_CHAT, chatId: TG_CHAT, fields: { voice: { ...voice, duration: 2, mime_type: "audio/ogg" } } });
    w.hs.sendEvent(ROOM, ANNA, "m.room.message", {
      msgtype: "m.image",
      body: "Katze x311",
      filename: "katze.jpg",
      url: w.hs.upload(JPEG, "image/jpeg"),
      info: { mimetype: "image/jpeg" },
    });
    await w.waitConfirmed(w.hs.position());
    await w.kill(bot!);
    w.release();

    // Confirmed to both platforms, so stored — and waiting behind the held turns, so not transcribed or answered yet.
    expect(userRows()).toEqual([
      { text: "Nachricht x300", state: "pending", transport: "telegram" },
      { text: `[Sprachnachricht] (media:${voice.file_id})`, state: "pending", transport: "telegram" },
      { text: "Nachricht x310", state: "pending", transport: "matrix" },
      { text: "[Foto] Katze x311", state: "pending", transport: "matrix" },
    ]);
    expect(stt.calls).toEqual([]);

    bot = await w.startBot();
    const all = ["x300", "x301", "x310", "x311"];
    await until(
      () => w.answered(all),
      15_000,
      () => JSON.stringify([...w.deliveredAnswers()]),
    );
    // The voice note was fetched again by its file id and transcribed once; its transcript is the stored message.
    expect(stt.calls).toMatchObject([{ content: "OGG-OPUS-BYTES" }]);
    expect(userRows().map((r) => [r.text, r.state])).toEqual([
      ["Nachricht x300", "answered"],
      ["Sprachnachricht x301 vom Markt", "answered"],
      ["Nachricht x310", "answered"],
      ["[Foto] Katze x311", "answered"],
    ]);
    // The chat call (the first request with the token; the extraction follows) read the transcript.
    expect(chatRequestsFor("x301")[0]?.messages.at(-1)?.content).toBe("Sprachnachricht x301 vom Markt");
    const tgAnswers = w.tg.calls("sendMessage", TG_CHAT).map((c) => String(c.params.text));
    expect(tgAnswers.filter((t) => t.startsWith("Antwort"))).toEqual(["Antwort x300", "Antwort x301"]);
    const mxAnswers = w.hs.sent.filter((e) => e.type === "m.room.message").map((e) => String(e.content.body));
    expect(mxAnswers.filter((t) => t.startsWith("Antwort"))).toEqual(["Antwort x310", "Antwort x311"]);
  }, 60_000);
});
