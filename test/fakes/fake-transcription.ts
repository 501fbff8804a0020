/**
 * A fake OpenAI-compatible speech-to-text endpoint (`POST …/audio/transcriptions`,
 * multipart with `file` and `model`) on 127.0.0.1, for the real `openai`
 * client as OpenAI, Groq and local whisper servers speak it.
 *
 * ```ts
 * const stt = await startFakeTranscription({ text: "Hallo Lilo" });
 * // LILO_TRANSCRIBE_BASE_URL = stt.baseURL
 * expect(stt.calls[0]).toMatchObject({ model: "whisper-1", fileName: "voice.ogg", content: "OGG…" });
 * ```
 */
import { sendJson, startFakeServer } from "./http-server.ts";

/** One transcription request as the fake read it. */
export interface TranscriptionCall {
  model: string;
  fileName: string;
  /** The uploaded file, read as UTF-8 (tests upload text bytes). */
  content: string;
  authorization: string | undefined;
}

export interface FakeTranscription {
  /** What to pass as the SDK's `baseURL`. */
  baseURL: string;
  calls: TranscriptionCall[];
  /** The transcript the next calls get; or an HTTP status to fail with. */
  answer: { text: string } | { status: number };
  close(): Promise<void>;
}

/** Starts the fake transcription endpoint. */
export async function startFakeTranscription(answer: FakeTranscription["answer"] = { text: "transcript" }): Promise<FakeTranscription> {
  const calls: TranscriptionCall[] = [];
  const server = await startFakeServer((req, res) => {
    if (req.method !== "POST" || !req.path.endsWith("/audio/transcriptions")) return sendJson(res, 404, { error: { message: "not found" } });
    const parts = multipart(req.rawBody, String(req.headers["content-type"] ?? ""));
    const file = parts.find((p) => p.name === "file");
    calls.push({
      model: parts.find((p) => p.name === "model")?.value ?? "",
      fileName: file?.fileName ?? "",
      content: file?.value ?? "",
      authorization: req.headers.authorization,
    });
    if ("status" in fake.answer) return sendJson(res, fake.answer.status, { error: { message: "fake transcription failure", type: "server_error" } });
    sendJson(res, 200, { text: fake.answer.text });
  });
  const fake: FakeTranscription = { baseURL: `${server.url}/v1`, calls, answer, close: () => server.close() };
  return fake;
}

function multipart(body: string, type: string): { name: string; fileName?: string; value: string }[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(type);
  if (!boundary) return [];
  return body.split(`--${boundary[1] ?? boundary[2]}`).flatMap((part) => {
    const m = /name="([^"]+)"(?:; filename="([^"]*)")?[^\r\n]*\r\n(?:[^\r\n]+\r\n)*\r\n([\s\S]*)\r\n$/.exec(part);
    return m ? [{ name: m[1]!, ...(m[2] !== undefined ? { fileName: m[2] } : {}), value: m[3]! }] : [];
  });
}
