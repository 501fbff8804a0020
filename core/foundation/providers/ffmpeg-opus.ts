import { spawn } from "node:child_process";
import { ProviderError } from "../errors.ts";

/** A conversion that runs longer than this is given up (a voice note is seconds of audio). */
const CONVERT_TIMEOUT_MS = 30_000;

/** Of what ffmpeg printed, this much is kept for the error. */
const STDERR_CHARS = 400;

/** Turns audio of another format into OGG/Opus. */
export interface OpusConverter {
  /** Is the tool there (looked for once)? */
  available(): Promise<boolean>;
  /** The audio as OGG/Opus; throws ProviderError when the tool fails. */
  toOggOpus(data: Uint8Array): Promise<Uint8Array>;
}

/**
 * OGG/Opus through the ffmpeg program (LILO_FFMPEG), for a speech server
 * that sends WAV or MP3 whatever format it was asked for. A system tool
 * rather than an npm package: the npm options bundle a downloaded binary or
 * a WebAssembly build of ffmpeg itself, while distributions ship and patch
 * ffmpeg with libopus. Whether it is there is asked once, by `-version`.
 */
export function ffmpegOpus(command: string): OpusConverter {
  let found: Promise<boolean> | undefined;
  return {
    available: () =>
      (found ??= run(command, ["-version"], new Uint8Array()).then(
        () => true,
        () => false,
      )),
    toOggOpus: (data) =>
      run(command, ["-hide_banner", "-loglevel", "error", "-i", "pipe:0", "-vn", "-c:a", "libopus", "-b:a", "32k", "-f", "ogg", "pipe:1"], data),
  };
}

/** Runs the tool with `input` on stdin; resolves with its stdout when it exits 0. */
function run(command: string, args: string[], input: Uint8Array): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"], timeout: CONVERT_TIMEOUT_MS });
    const out: Buffer[] = [];
    let err = "";
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => (err = (err + String(c)).slice(-STDERR_CHARS)));
    const fail = (message: string, cause?: unknown) => reject(new ProviderError(`${command}: ${message}`, { provider: "ffmpeg", retryable: false, cause }));
    child.on("error", (e) => fail(e.message, e));
    // A tool that exits before reading all of stdin closes the pipe: its exit code tells what happened.
    child.stdin.on("error", () => undefined);
    child.on("close", (code, signal) => {
      if (code === 0) resolve(new Uint8Array(Buffer.concat(out)));
      else fail(`exited with ${signal ?? code}${err.trim() ? `: ${err.trim()}` : ""}`);
    });
    child.stdin.end(Buffer.from(input));
  });
}
