import { existsSync, readFileSync, statSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { typeIntoTerminal } from "./terminal-session.ts";
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
    const printed = await typeIntoTerminal(t.lilo, ["Hallo Lilo", "/voice on", "Und jetzt?"]);
    const paths = [...printed.matchAll(/🔊 (\S+\.ogg)/g)].map((m) => m[1]!);
    expect(paths).toHaveLength(1);
    expect(printed.indexOf("Ab jetzt antworte ich dir auch mit Sprachnachrichten.")).toBeLessThan(printed.indexOf("🔊"));
    expect(existsSync(paths[0]!) && readFileSync(paths[0]!).equals(TINY_OGG_OPUS)).toBe(true);
    expect(statSync(paths[0]!).mode & 0o777).toBe(0o600);
  });
});
