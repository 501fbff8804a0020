import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ProviderError } from "../../../core/foundation/errors.ts";
import { loadConfig } from "../../../core/index.ts";
import { createTranscriber } from "../../../core/foundation/providers/openai-transcriber.ts";
import { startFakeTranscription, type FakeTranscription } from "../../fakes/fake-transcription.ts";

const audio = { data: Buffer.from("OGG"), fileName: "voice.ogg", mediaType: "audio/ogg" };

describe("transcriber retries (the SDK's, LILO_TRANSCRIBE_MAX_RETRIES)", () => {
  let stt: FakeTranscription;
  beforeEach(async () => {
    stt = await startFakeTranscription({ status: 503 });
  });
  afterEach(async () => {
    await stt.close();
  });

  const transcriber = (env: Record<string, string> = {}) => createTranscriber(loadConfig({ LILO_TRANSCRIBE_BASE_URL: stt.baseURL, ...env }).media)!;

  it("retries a server error as often as configured, then fails with a retryable ProviderError", async () => {
    const err = await transcriber({ LILO_TRANSCRIBE_MAX_RETRIES: "1" })
      .transcribe(audio)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect([(err as ProviderError).status, (err as ProviderError).retryable]).toEqual([503, true]);
    expect(stt.calls).toHaveLength(2);
  });

  it("tries only once when retries are off or the error is the client's", async () => {
    await expect(transcriber({ LILO_TRANSCRIBE_MAX_RETRIES: "0" }).transcribe(audio)).rejects.toBeInstanceOf(ProviderError);
    expect(stt.calls).toHaveLength(1);
    stt.answer = { status: 400 };
    await expect(transcriber().transcribe(audio)).rejects.toMatchObject({ status: 400, retryable: false });
    expect(stt.calls).toHaveLength(2);
  });
});
