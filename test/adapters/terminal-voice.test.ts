import { existsSync, readFileSync, statSync } from "node:fs";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runTerminal } from "../../adapters/terminal/terminal.ts";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { startFakeSpeech, TINY_OGG_OPUS, type FakeSpeech } from "../fakes/fake-speech.ts";
import { isExtraction, makeTestLilo, NO_EXTRACTION, type TestLilo } from "../helpers/test-lilo.ts";

describe("terminal: voice replies as audio files", () => {
  let model: FakeAnthropic;
  let tts: FakeSpeech;
  let t: TestLilo;
  beforeEach(async () => {
    model = await startFakeAnthropic();
    tts = await startFakeSpeech();
    model.replyAlways((b) => (isExtraction(b.system) ? NO_EXTRACTION : "Hallo zurück!"));
    t = makeTestLilo({
      ANTHROPIC_API_KEY: "k",
      ANTHROPIC_BASE_URL: model.baseURL,
      LILO_CHAT_MODEL: "anthropic:claude-test",
      LILO_SPEECH_BASE_URL: tts.baseURL,
    });
  });
  afterEach(async () => {
    await t.cleanup();
    await model.close();
    await tts.close();
  });

  it("after /voice on, prints the path of the answer's OGG/Opus file beside the text, the file private to the owner", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let printed = "";
    output.on("data", (c) => (printed += String(c)));
    const done = runTerminal(t.lilo, { input, output, userId: "owner" });
    input.write("Hallo Lilo\n");
    input.write("/voice on\n");
    input.end("Und jetzt?\n");
    await done;
    const paths = [...printed.matchAll(/🔊 (\S+\.ogg)/g)].map((m) => m[1]!);
    expect(paths).toHaveLength(1);
    expect(printed.indexOf("Ab jetzt antworte ich dir auch mit Sprachnachrichten.")).toBeLessThan(printed.indexOf("🔊"));
    expect(existsSync(paths[0]!) && readFileSync(paths[0]!).equals(TINY_OGG_OPUS)).toBe(true);
    expect(statSync(paths[0]!).mode & 0o777).toBe(0o600);
  });
});
