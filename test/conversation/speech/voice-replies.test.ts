import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Logger, Speaker } from "../../../core/index.ts";
import { speakableText } from "../../../core/conversation/speech/speakable-text.ts";
import { MARKERS } from "../../../core/conversation/markers/registry.ts";
import { ffmpegOpus } from "../../../core/foundation/providers/ffmpeg-opus.ts";
import { TINY_OGG_OPUS } from "../../fakes/fake-speech.ts";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";

const WAV = Buffer.concat([Buffer.from("RIFF\x24\x00\x00\x00WAVEfmt ", "latin1"), Buffer.alloc(32)]);

/** A speaker that answers with fixed bytes and remembers what it was asked to say. */
function fixedSpeaker(audio: Buffer): Speaker & { said: string[] } {
  const said: string[] = [];
  return { provider: "speech", model: "tts-1", local: false, said, speak: async (r) => (said.push(r.text), { data: audio, mediaType: "audio/wav" }) };
}

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const write = (lvl: string) => (msg: string) => void lines.push(`${lvl} ${msg}`);
  return { lines, debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error") };
}

/** A stand-in for the ffmpeg program: a script that prints the tiny OGG/Opus file whatever it is given. */
function fakeFfmpeg(): string {
  const dir = mkdtempSync(join(tmpdir(), "lilo-ffmpeg-"));
  writeFileSync(join(dir, "tiny.ogg"), TINY_OGG_OPUS);
  const script = join(dir, "ffmpeg");
  writeFileSync(script, `#!/bin/sh\ncat > /dev/null\ncat "${join(dir, "tiny.ogg")}"\n`);
  chmodSync(script, 0o755);
  return script;
}

describe("voice replies: what is read out, and audio in other formats", () => {
  let t: TestLilo | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it("reads a long answer up to the last sentence end within LILO_SPEECH_MAX_CHARS", () => {
    const answer = "Erster Satz ist da. Zweiter Satz kommt auch noch. Dritter Satz ist zu lang für die Stimme.";
    expect(speakableText(answer, MARKERS, 55)).toEqual({ text: "Erster Satz ist da. Zweiter Satz kommt auch noch.", shortened: true });
  });

  it("leaves code blocks to the text and reads a link as its words", () => {
    const answer = "Schau [hier](https://example.org) nach:\n```js\nconsole.log(1)\n```\nDas war's.";
    expect(speakableText(answer, MARKERS, 1_000)).toEqual({ text: "Schau hier nach:\nDas war's.", shortened: true });
  });

  it("converts audio that is not OGG/Opus with ffmpeg (LILO_FFMPEG)", async () => {
    const speaker = fixedSpeaker(WAV);
    t = makeTestLilo({ LILO_SPEECH_BASE_URL: "http://127.0.0.1:9/v1" }, { speaker, opusConverter: ffmpegOpus(fakeFfmpeg()) });
    const reply = await t.lilo.voice.reply("chris", "Hallo du.");
    expect(reply).toMatchObject({ kind: "voice", spoken: "Hallo du." });
    expect(reply.kind === "voice" && Buffer.from(reply.audio).equals(TINY_OGG_OPUS)).toBe(true);
  });

  it("answers in text only, with one log line, when the audio is not OGG/Opus and ffmpeg is not there", async () => {
    const logger = recordingLogger();
    t = makeTestLilo(
      { LILO_SPEECH_BASE_URL: "http://127.0.0.1:9/v1" },
      { speaker: fixedSpeaker(WAV), opusConverter: ffmpegOpus(join(tmpdir(), "no-such-ffmpeg")), logger },
    );
    await t.lilo.voice.check();
    expect(await t.lilo.voice.reply("chris", "Hallo du.")).toEqual({ kind: "text-only", reason: "not-opus" });
    expect(logger.lines.filter((l) => l.includes("ffmpeg"))).toEqual([
      "info voice replies: no ffmpeg; audio the endpoint sends in another format than OGG/Opus is not sent",
      "warn voice reply not sent: the endpoint sent no OGG/Opus and ffmpeg is not there to convert it",
    ]);
  });
});
