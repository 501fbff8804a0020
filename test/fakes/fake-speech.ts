/**
 * A fake OpenAI-compatible text-to-speech endpoint (`POST …/audio/speech`,
 * JSON with model, voice, input and response_format) on 127.0.0.1, for the
 * real `openai` client as OpenAI and local speech servers speak it. By
 * default it answers with a real tiny OGG/Opus file (test/fixtures/audio/tiny.ogg).
 *
 * ```ts
 * const tts = await startFakeSpeech();
 * // LILO_SPEECH_BASE_URL = tts.baseURL
 * expect(tts.calls[0]).toMatchObject({ model: "tts-1", voice: "nova", input: "Hallo", response_format: "opus" });
 * ```
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sendJson, startFakeServer } from "./http-server.ts";

/** The real tiny OGG/Opus file the fake speaks with (0.1 s of a tone, under 1 KB). */
export const TINY_OGG_OPUS: Buffer = readFileSync(join(import.meta.dirname, "..", "fixtures", "audio", "tiny.ogg"));

/** One speech request as the fake read it. */
export interface SpeechCall {
  model: string;
  voice: string;
  input: string;
  response_format: string | undefined;
  authorization: string | undefined;
}

export interface FakeSpeech {
  /** What to pass as the SDK's `baseURL`. */
  baseURL: string;
  calls: SpeechCall[];
  /** What the next calls get: audio bytes with their type, an HTTP status to fail with, or no answer for `ms`. */
  answer: { audio: Buffer; contentType: string } | { status: number } | { hangMs: number };
  close(): Promise<void>;
}

/** Starts the fake speech endpoint. */
export async function startFakeSpeech(answer: FakeSpeech["answer"] = { audio: TINY_OGG_OPUS, contentType: "audio/ogg" }): Promise<FakeSpeech> {
  const calls: SpeechCall[] = [];
  const server = await startFakeServer(async (req, res) => {
    if (req.method !== "POST" || !req.path.endsWith("/audio/speech")) return sendJson(res, 404, { error: { message: "not found" } });
    const body = req.body as Partial<SpeechCall>;
    calls.push({
      model: String(body.model ?? ""),
      voice: String(body.voice ?? ""),
      input: String(body.input ?? ""),
      response_format: body.response_format,
      authorization: req.headers.authorization,
    });
    const a = fake.answer;
    if ("status" in a) return sendJson(res, a.status, { error: { message: "fake speech failure", type: "server_error" } });
    if ("hangMs" in a) {
      await new Promise((resolve) => setTimeout(resolve, a.hangMs));
      if (!res.writableEnded) res.destroy();
      return;
    }
    res.writeHead(200, { "content-type": a.contentType, "content-length": String(a.audio.length) });
    res.end(a.audio);
  });
  const fake: FakeSpeech = { baseURL: `${server.url}/v1`, calls, answer, close: () => server.close() };
  return fake;
}
